import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { translator } from '../schemas/kit/catalogue';
import { entities } from '../schemas/generated/registry';
import type { EntitySchema } from '../schemas/kit/entity';
import { installAuthentication } from './auth/authenticate';
import { PUBLIC } from './auth/caller';
import { buildModel, type EntityModel } from './crud/model';
import { registerEntityRoutes } from './crud/routes';
import { registerSheetRoutes } from './crud/sheetRoutes';
import { registerVehicleExtras } from './vehicle';
import type { Database } from './db/database';
import { makeErrorHandler, type UniqueIndexMap } from './http/errorHandler';
import './http/fastifyTypes';
import { requestLanguage } from './http/language';
import { loggerOptions } from './http/logging';
import { serveConsole } from './http/staticConsole';
import { registerPassport } from './passport';
import { DEFAULT_THROTTLE, type ThrottlePolicy } from './passport/throttle';
import { registerLocationRoutes } from './location/routes';
import { registerConfigParseRoutes } from './configParse/routes';
import { registerDecodeRoute } from './telematics/jt808/decodeRoute';
import { installValidators } from './http/validators';

export interface AppOptions {
  database: Database;
  secret: string;
  tokenTtlHours?: number;
  /** Built console to serve at /; omitted → API only. */
  consoleDir?: string;
  logLevel?: string;
  /** Failed-login slowing and lockout (default: DEFAULT_THROTTLE). */
  throttle?: ThrottlePolicy;
  /** Entity schemas to serve (default: the generated registry). */
  entitySchemas?: Record<string, EntitySchema>;
  /** Map tile URL template (MAP_TILE_URL); absent → no map tiles. */
  mapTileUrl?: string;
  /** Coordinate system of the tiles (MAP_TILE_COORDS, default WGS84). */
  mapTileCoords?: 'WGS84' | 'GCJ02';
}

export const VERSION = '0.1.0';

/** Every /api route and the permission it declares (for the permission tests and the docs). */
export interface RouteEntry {
  method: string;
  url: string;
  permission: string | Record<string, string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: RouteEntry[];
  }
}

function uniqueIndexes(models: EntityModel[]): UniqueIndexMap {
  const map: UniqueIndexMap = new Map();
  for (const m of models)
    for (const u of m.uniqueIndexes) map.set(u.index, { fields: u.fields, labelKeys: u.fields.map((f) => `${m.labelPrefix}.${f}`) });
  return map;
}

/** The origin of an absolute tile URL template, for the CSP ({s} subdomains as `*`; a path on this server needs none). */
const tileOrigin = (url: string | undefined): string[] => {
  const m = url ? /^https?:\/\/[^/]+/.exec(url) : null;
  return m ? [m[0].replace(/\{s\}/g, '*')] : [];
};

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { database } = opts;
  const db = database.db;
  const app = Fastify({ logger: loggerOptions(opts.logLevel ?? 'info'), bodyLimit: 1024 * 1024 });
  installValidators(app);

  const schemas = opts.entitySchemas ?? entities;
  const models = Object.values(schemas).map((s) => buildModel(s, schemas));
  app.setErrorHandler(makeErrorHandler(uniqueIndexes(models)));

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
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
      },
    },
  });
  await app.register(rateLimit, { global: false });
  // Uploads are read one file at a time; each route sets its own, smaller, size limit.
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10, parts: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: '车管星 · Fleet Star API', version: VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // A route under /api that forgets its permission fails at start-up, not in production.
  const catalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.config?.permission) {
      for (const method of [route.method].flat()) catalogue.push({ method, url: route.url, permission: route.config.permission });
    }
    const p = route.config?.permission;
    if (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !(typeof p === 'string' ? p : p && Object.keys(p).length)) {
      throw new Error(`route ${route.method} ${route.url} declares no permission`);
    }
  });
  const sessionDeps = { db, secret: opts.secret, ttlHours: opts.tokenTtlHours ?? 12 };
  installAuthentication(app, sessionDeps);

  app.get('/api/health', { config: { permission: PUBLIC }, schema: { tags: ['system'] } }, async () => {
    await db.selectFrom('schema_migration').select('name').limit(1).execute();
    return { status: 'ok', database: database.kind, version: VERSION };
  });
  registerPassport(app, { ...sessionDeps, throttle: opts.throttle ?? DEFAULT_THROTTLE });
  registerDecodeRoute(app);
  for (const m of models) {
    registerEntityRoutes(app, db as unknown as Kysely<unknown>, m);
    registerSheetRoutes(app, db as unknown as Kysely<unknown>, m);
  }
  const byName = new Map(models.map((m) => [m.name, m]));
  registerVehicleExtras(app, { db: db as unknown as Kysely<unknown>, has: (n) => byName.has(n), model: (n) => byName.get(n)! });
  if (byName.has('vehicle')) registerLocationRoutes(app, { db: db as unknown as Kysely<unknown>, vehicles: byName.get('vehicle')!, map: { tileUrl: opts.mapTileUrl ?? null, coordSystem: opts.mapTileCoords ?? 'WGS84' } });
  if (byName.has('configParseFile')) registerConfigParseRoutes(app, { db: db as unknown as Kysely<unknown>, model: byName.get('configParseFile')! });

  const hasConsole = opts.consoleDir ? await serveConsole(app, opts.consoleDir) : false;
  app.setNotFoundHandler((req, reply) => {
    if (hasConsole && req.method === 'GET' && !req.url.startsWith('/api')) return reply.sendFile('index.html');
    const t = translator(requestLanguage(req));
    return reply.status(404).send({ success: false, code: 'error.routeNotFound', message: t('error.routeNotFound') });
  });
  return app;
}
