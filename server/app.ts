import os from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { entities } from '../schemas/generated/registry';
import { servedByCrud, type EntitySchema } from '../schemas/kit/entity';
import { installAuthentication } from './platform/auth/authenticate';
import type { AnnounceSessionChange } from './platform/auth/sessionChanges';
import { PUBLIC } from './platform/auth/caller';
import { buildModel, type EntityModel } from './platform/crud/model';
import { registerEntityRoutes } from './platform/crud/routes';
import { registerSheetRoutes } from './platform/crud/sheetRoutes';
import { registerVehicleExtras } from './fleet';
import type { Database } from './platform/db/database';
import { makeErrorHandler, type UniqueIndexMap } from './platform/http/errorHandler';
import './platform/http/fastifyTypes';
import { LabelOverrides, requestTranslator } from './platform/labelOverrides';
import { registerLabelRoutes } from './labels/routes';
import { registerProgressRoutes } from './platform/progress/routes';
import { loggerOptions, type LogFormat } from './platform/http/logging';
import { serveConsole } from './platform/http/staticConsole';
import { registerPassport } from './passport';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from './passport/throttle';
import { registerLocationRoutes } from './location/routes';
import { OFFLINE_GEOCODING, type GeocodeConfig } from './geocode/config';
import { registerGeocodeRoutes } from './geocode/routes';
import { registerConfigParseRoutes } from './configParse/routes';
import { registerDecodeRoute, registerMediaRoutes } from './telematics/routes';
import { installValidators } from './platform/http/validators';
import type { TrustProxy } from './config';
import { upgradeInsecureRequestsOverHttps } from './platform/http/csp';
import { installNulByteGuard } from './platform/http/nulBytes';
import { installJsonBodyParser } from './platform/http/jsonBody';
import { registerReports, reportSheetMakers } from './reports';
import { registerDriverCardRoutes } from './drivers/cardRoutes';
import { checkReportScheduleBody, registerReportMailRoutes, reportMailer, type ReportMailer } from './reportMail';
import type { SmtpConfig } from './notify/smtp';
import { alarmListSheet, registerAlarmFeature } from './alarmCentre';
import { registerSubscriptionRoutes } from './subscriptions';
import type { LinkView } from './forwarding';
import { registerForwardingRoutes } from './forwarding/routes';
import { registerForwardLinkRoutes } from './forwarding/linkRoutes';
import type { AnnounceForwardChange } from './platform/forwardChanges';
import type { AlarmType } from './intelligence/alarms/types';
import { checkFenceBody } from './fleet/fenceRoutes';
import type { BodyCheck, WriteWatch } from './platform/crud/routes';
import { notifyRuleCheck } from './notify/receivers';
import { checkScheduleBody, checkWorkOrderBody } from './maintenance/writeRules';
import { registerWorkOrderRoutes } from './maintenance/workOrderRoutes';
import { NO_ALLOW, type TargetAllow } from './notify/target';
import { reboundTerminals, TerminalSessions } from './platform/terminalSessions';
import { parseMetricsAccess, type MetricsAccess } from './platform/metrics/access';
import { registerMetrics } from './platform/metrics/routes';
import type { ServerMetrics } from './platform/metrics/serverMetrics';

export interface AppOptions {
  database: Database;
  secret: string;
  tokenTtlHours?: number;
  /** Built console to serve at /; omitted → API only. */
  consoleDir?: string;
  /** Where terminals' uploaded media are kept (DATA_DIR/media); omitted → a folder under the OS temp dir. */
  mediaDir?: string;
  logLevel?: string;
  /** JSON lines (default) or pino-pretty's readable lines. */
  logFormat?: LogFormat;
  /** Failed-login slowing and lockout (default: DEFAULT_THROTTLE). */
  throttle?: ThrottlePolicy;
  /** Entity schemas to serve (default: the generated registry). */
  entitySchemas?: Record<string, EntitySchema>;
  /** Non-public hosts and ranges notification rules may post to (WEBHOOK_ALLOW); default none. */
  webhookAllow?: TargetAllow;
  /** Map tile URL template (MAP_TILE_URL); absent → no map tiles. */
  mapTileUrl?: string;
  /** Coordinate system of the tiles (MAP_TILE_COORDS, default WGS84). */
  mapTileCoords?: 'WGS84' | 'GCJ02';
  /** Reverse proxies whose X-Forwarded-For/-Proto are believed (TRUST_PROXY; default none). */
  trustProxy?: TrustProxy;
  /** Credit the map shows for those tiles (HTML of a text and links). */
  mapTileAttribution?: string;
  /** Reverse geocoding (GEOCODE_*); absent → province / city / district from the shipped boundaries only. */
  geocode?: GeocodeConfig;
  /** IANA zone of local days in reports (FLEET_TIMEZONE, default Asia/Shanghai). */
  timeZone?: string;
  /** Tells every process's live sockets that sessions ended or changed scope (bootstrap: the bus); absent, nobody is told. */
  sessionsChanged?: AnnounceSessionChange;
  /** OBD alarm item ids mapped to alarm types (OBD_ALARM_TYPES), for re-derivations the routes start. */
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
  /** Who may read GET /metrics (METRICS_TOKEN, METRICS_ALLOW); default loopback only. */
  metricsAccess?: MetricsAccess;
  /** The series /metrics shows (bootstrap makes them); absent, no /metrics and no request timing. */
  metrics?: ServerMetrics;
  /** The mail server scheduled reports are sent through (SMTP_*, as e-mail notifications); absent, their sends fail with a clear error. */
  smtp?: SmtpConfig | null;
  /** The forwarding links this process runs (bootstrap); absent or null, every link shows 'off'. */
  forwardingLinks?: () => LinkView[] | null;
  /** Non-public hosts and ranges forwarding links may connect to (FORWARD_ALLOW); default none. */
  forwardAllow?: TargetAllow;
  /** Tells every process's forwarding that a link changed (bootstrap: the bus); absent, nobody is told. */
  forwardLinksChanged?: AnnounceForwardChange;
}

export const VERSION = '0.1.0';

/** Every /api route and the permission it declares (for the permission tests and the docs). */
export interface RouteEntry {
  method: string;
  url: string;
  permission: string | Record<string, string>;
  /** Writes data shared by every organisation: system organisation members only. */
  sharedWrite: boolean;
  /** Declares the schema of its success answer (the console's type and the answer check's reference). */
  answerSchema: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: RouteEntry[];
    /** Scheduled reports' sender: bootstrap starts its clock (tests tick it). */
    reportMail: ReportMailer;
  }
}

/** A route's response schemas (Fastify types them unknown) include a success status. */
/** `GET /api/health`: the server answers and its database does. */
const HEALTH_ANSWER = {
  type: 'object',
  required: ['status', 'database', 'version'],
  properties: { status: { const: 'ok' }, database: { enum: ['pglite', 'postgres'] }, version: { type: 'string' } },
} as const;

const answersDescribed = (response: unknown) =>
  typeof response === 'object' && response !== null && Object.keys(response).some((status) => /^2/.test(status));

function uniqueIndexes(models: EntityModel[]): UniqueIndexMap {
  const map: UniqueIndexMap = new Map();
  for (const m of models)
    for (const u of m.uniqueIndexes)
      map.set(u.index, { fields: u.fields, labelKeys: u.fields.map((f) => `${m.labelPrefix}.${f}`), key: u.key });
  return map;
}

/** The origin of an absolute tile URL template, for the CSP ({s} subdomains as `*`; a path on this server needs none). */
const tileOrigin = (url: string | undefined): string[] => {
  const m = url ? /^https?:\/\/[^/]+/.exec(url) : null;
  return m ? [m[0].replace(/\{s\}/g, '*')] : [];
};

/** Fastify's form of TRUST_PROXY: a hop count becomes the function Fastify itself builds from one (its types lack the number). */
const fastifyTrustProxy = (t: TrustProxy | undefined) => (typeof t === 'number' ? (_addr: string, hop: number) => hop < t : (t ?? false));

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { database } = opts;
  const db = database.db;
  const app = Fastify({
    logger: loggerOptions(opts.logLevel ?? 'info', opts.logFormat),
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(opts.trustProxy),
  });
  installValidators(app);
  installJsonBodyParser(app);
  installNulByteGuard(app);

  // The generic CRUD serves only entities whose routes are not hand-written (x-entity.handWritten).
  const schemas = Object.fromEntries(Object.entries(opts.entitySchemas ?? entities).filter(([, s]) => servedByCrud(s)));
  const models = Object.values(schemas).map((s) => buildModel(s, schemas));
  app.setErrorHandler(makeErrorHandler(uniqueIndexes(models)));
  // Published label and message overrides: every localised answer reads them (issue 17).
  const labelOverrides = new LabelOverrides(db);
  await labelOverrides.reload();
  app.decorate('labelOverrides', labelOverrides);
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) await labelOverrides.refreshIfStale();
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Map tiles come from elsewhere only when MAP_TILE_URL names another host.
        imgSrc: ["'self'", 'data:', 'blob:', ...tileOrigin(opts.mapTileUrl)],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        // Live video plays through Media Source Extensions: a blob: URL on the video element.
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        // Added per request, only when the console was reached over HTTPS (see http/csp.ts).
        upgradeInsecureRequests: null,
      },
    },
  });
  upgradeInsecureRequestsOverHttps(app);
  await app.register(rateLimit, { global: false });
  // Uploads are read one file at a time; each route sets its own, smaller, size limit.
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10, parts: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: '车管星 · Fleet Star API', version: VERSION },
      // A signed-in person's token, or an integrator's API key (docs/api.md#api-keys).
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // A route under /api that forgets its permission fails at start-up, not in production.
  const catalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.config?.permission) {
      for (const method of [route.method].flat())
        catalogue.push({
          method,
          url: route.url,
          permission: route.config.permission,
          sharedWrite: !!route.config.sharedWrite,
          answerSchema: answersDescribed(route.schema?.response),
        });
    }
    const p = route.config?.permission;
    if (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !(typeof p === 'string' ? p : p && Object.keys(p).length)) {
      throw new Error(`route ${route.method} ${route.url} declares no permission`);
    }
  });
  const sessionDeps = { db, secret: opts.secret, ttlHours: opts.tokenTtlHours ?? 12 };
  installAuthentication(app, sessionDeps);
  if (opts.metrics) registerMetrics(app, opts.metrics, opts.metricsAccess ?? parseMetricsAccess(undefined, undefined));

  app.get('/api/health', { config: { permission: PUBLIC }, schema: { tags: ['system'], response: { 200: HEALTH_ANSWER } } }, async () => {
    await db.selectFrom('schema_migration').select('name').limit(1).execute();
    return { status: 'ok', database: database.kind, version: VERSION };
  });
  registerPassport(app, {
    ...sessionDeps,
    throttle: opts.throttle ?? DEFAULT_THROTTLE,
    sessionsChanged: opts.sessionsChanged ?? (() => undefined),
  });
  registerDecodeRoute(app);
  registerMediaRoutes(app, db, opts.mediaDir ?? path.join(os.tmpdir(), 'fleet-star-media'));
  registerLabelRoutes(app, { db, overrides: labelOverrides });
  registerProgressRoutes(app);
  /** Entities' own whole-body rules beyond their schemas, by entity name. */
  const bodyChecks: Readonly<Record<string, BodyCheck>> = {
    fence: checkFenceBody,
    notify: notifyRuleCheck(opts.webhookAllow ?? NO_ALLOW),
    maintenanceSchedule: checkScheduleBody,
    workOrder: checkWorkOrderBody,
    reportSchedule: checkReportScheduleBody,
  };
  // Writes that change a terminal's vehicle or organisation reach its live gateway session at once.
  const terminalSessions = new TerminalSessions();
  app.decorate('terminalSessions', terminalSessions);
  const rebindWatch = (name: string): WriteWatch | undefined => {
    const rebound = name === 'vehicle' || name === 'terminal' ? reboundTerminals[name] : undefined;
    return rebound && ((changes) => terminalSessions.rebind(rebound(changes)));
  };
  for (const m of models) {
    registerEntityRoutes(app, db, m, bodyChecks[m.name], rebindWatch(m.name));
    registerSheetRoutes(app, db, m, bodyChecks[m.name], rebindWatch(m.name));
  }
  const byName = new Map(models.map((m) => [m.name, m]));
  registerVehicleExtras(app, { db: db, has: (n) => byName.has(n), model: (n) => byName.get(n)! });
  if (byName.has('vehicle'))
    registerLocationRoutes(app, {
      db: db,
      vehicles: byName.get('vehicle')!,
      map: {
        tileUrl: opts.mapTileUrl ?? null,
        coordSystem: opts.mapTileCoords ?? 'WGS84',
        attribution: opts.mapTileUrl ? (opts.mapTileAttribution ?? null) : null,
      },
    });
  registerGeocodeRoutes(app, db, opts.geocode ?? OFFLINE_GEOCODING);
  if (byName.has('configParseFile')) registerConfigParseRoutes(app, { db: db, model: byName.get('configParseFile')! });
  if (byName.has('workOrder')) registerWorkOrderRoutes(app, { db, workOrders: byName.get('workOrder')! });

  registerReports(app, { db, timeZone: opts.timeZone ?? 'Asia/Shanghai' });
  // Scheduled reports attach the exports' own sheets; the clock is started by bootstrap, "send now" is a route.
  const reportMail = reportMailer({
    db,
    timeZone: opts.timeZone ?? 'Asia/Shanghai',
    smtp: opts.smtp,
    sheets: { ...reportSheetMakers({ db, timeZone: opts.timeZone ?? 'Asia/Shanghai' }), alarms: alarmListSheet(db) },
    log: app.log,
  });
  app.decorate('reportMail', reportMail);
  if (byName.has('reportSchedule')) registerReportMailRoutes(app, { db, mailer: reportMail });
  if (byName.has('driver') && byName.has('vehicle')) registerDriverCardRoutes(app, { db });
  if (byName.has('vehicle') && byName.has('fence') && byName.has('policy'))
    registerAlarmFeature(app, {
      db,
      fences: byName.get('fence')!,
      timeZone: opts.timeZone ?? 'Asia/Shanghai',
      obdAlarmTypes: opts.obdAlarmTypes,
    });
  if (byName.has('vehicle')) registerSubscriptionRoutes(app, db, opts.webhookAllow ?? NO_ALLOW);
  if (byName.has('vehicle')) {
    registerForwardingRoutes(app, db, opts.forwardingLinks ?? (() => null));
    registerForwardLinkRoutes(app, { db, allow: opts.forwardAllow ?? NO_ALLOW, changed: opts.forwardLinksChanged ?? (() => undefined) });
  }

  const hasConsole = opts.consoleDir ? await serveConsole(app, opts.consoleDir) : false;
  app.setNotFoundHandler((req, reply) => {
    if (hasConsole && req.method === 'GET' && !req.url.startsWith('/api')) return reply.sendFile('index.html');
    const t = requestTranslator(req);
    return reply.status(404).send({ success: false, code: 'error.routeNotFound', message: t('error.routeNotFound') });
  });
  return app;
}
