import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '../../schemas/kit/entity';
import { bootstrap } from '../../server/bootstrap';
import type { Database } from '../../server/platform/db/database';
import type { DemoFixtures } from '../../server/seed/fixtures';
import { seed } from '../../server/seed/seed';

export interface MockAppOptions {
  entities: Record<string, EntitySchema>;
  fixtures: DemoFixtures;
  /** Password of `admin`, which the demo accounts (hd-manager, sh-dispatcher, hn-manager) share. */
  adminPassword: string;
  /** Fastify's log level (default 'warn': the dev server's terminal is the console's). */
  logLevel?: string;
}

export interface MockApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/**
 * The server as `npm start` assembles it (server/main.ts), with what a console-only demo cannot
 * have left out: the database is PGlite in memory, migrated and seeded with the demo fixtures on
 * every start; the JT/T 808 gateway is off (JT808_PORT=0), so no terminal is ever online and the
 * downlink routes answer the server's own 406 "terminal offline"; nothing listens on a port.
 */
export async function startMockApp(opts: MockAppOptions): Promise<MockApp> {
  const server = await bootstrap({
    database: { dataDir: 'memory://' },
    seed: (db) => seed(db, { demo: true, adminPassword: opts.adminPassword, fixtures: opts.fixtures }),
    // No JWT secret: a fresh one is generated in the fresh database, so tokens die with the data they refer to.
    app: { logLevel: opts.logLevel ?? 'warn', entitySchemas: opts.entities },
    telematics: { config: { jt808Port: 0, host: '127.0.0.1', tokenTtlHours: 12 } },
  });
  await server.app.ready();
  return { app: server.app, database: server.database, close: server.close };
}
