/**
 * The Umi mock of `npm run dev:mock`: the server itself, in the dev server's process.
 *
 * Every /api call the console makes is answered by the real Fastify app (server/app.ts, with the
 * telematics routes as server/main.ts adds them) over PGlite in memory, migrated and seeded with
 * the demo fixtures at each start; Umi's request is replayed into it with `inject` and the answer
 * copied back byte for byte. So each route, shape, status code, localised message, permission
 * check (admin and the demo accounts hd-manager, sh-dispatcher, hn-manager share one password),
 * spreadsheet (exceljs) and upload rule is the server's own, and the mock cannot drift from it.
 * State lives as long as the dev server (or until a file under mock/ changes).
 *
 * Not served, because nothing in a console-only demo can provide them:
 * - the live WebSocket (GET /api/vehicle/live): Umi's mock middleware cannot upgrade a connection,
 *   so the monitor pages get no pushed positions (a plain HTTP call still gets the server's answer);
 * - terminals: the JT/T 808 gateway is off, so downlink commands answer the server's 406
 *   "terminal offline", and no positions or trips arrive beyond the seeded ones.
 * A body Umi's body-parser cannot parse (malformed JSON) gets Express's HTML 400, not the server's
 * localised one: the console never sends one.
 */
import type { EntityName } from '../../schemas/generated/registry';
import type { CrudOperation, EntitySchema } from '../../schemas/kit/entity';
import type { DemoFixtures } from '../../server/seed/fixtures';
import { startMockApp, type MockApp } from './app';
import { forwardTo, type MockRoutes, type UmiHandler } from './umi';

export interface MockServerOptions {
  entities: Record<EntityName, EntitySchema>;
  fixtures: DemoFixtures;
  /** Password of the demo `admin` and the demo accounts (default DEMO_PASSWORD). */
  adminPassword?: string;
  /** Fastify's log level (default 'warn'). */
  logLevel?: string;
}

/** The mock's demo login is admin / this, unless MOCK_ADMIN_PASSWORD says otherwise (README). */
export const DEMO_PASSWORD = 'Fleet2026x';

export interface MockServer {
  /** The session routes the shell calls first (login, logout, member/current, the menu tree). */
  passportRoutes: MockRoutes;
  /** The handler of one entity operation; the generated mock file binds it to the schema's paths. */
  entity(name: EntityName, op: CrudOperation): UmiHandler;
  /** To list last: every other /api call, answered by the server's router (404 when it has no route). */
  fallbackRoutes: MockRoutes;
  /** The in-memory server, started by the first call (or by this), once it is ready. */
  start(): Promise<MockApp>;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/**
 * Starts the in-memory server and hands out Umi handlers for it. Every handler forwards to the
 * same app, whose router picks the route: the generated table's keys name the schema routes, and
 * the catch-all after them takes the hand-written ones, so no key order can misroute a call.
 */
export function createMockServer(opts: MockServerOptions): MockServer {
  // Started on first use: Umi loads the mock file again on every change under mock/, and merely
  // importing it (as the tests do for `mockRoutes`) should not start a database.
  let started: Promise<MockApp> | undefined;
  const start = () =>
    (started ??= startMockApp({
      entities: opts.entities,
      fixtures: opts.fixtures,
      adminPassword: opts.adminPassword ?? DEMO_PASSWORD,
      logLevel: opts.logLevel,
    }));
  const forward = forwardTo(async () => (await start()).app);
  return {
    passportRoutes: {
      'POST /api/login': forward,
      'POST /api/logout': forward,
      'GET /api/passport/member/current': forward,
      'GET /api/passport/resource/authorized/:app': forward,
    },
    entity: (name) => {
      if (!opts.entities[name]) throw new Error(`mock: no entity schema ${name}`);
      return forward;
    },
    fallbackRoutes: Object.fromEntries(METHODS.map((m) => [`${m} /api/(.*)`, forward])),
    start,
  };
}
