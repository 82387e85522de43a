import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '../../schemas/kit/entity';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import type { DemoFixtures } from '../../server/seed/fixtures';
import { seed } from '../../server/seed/seed';
import { startTelematics, type Telematics } from '../../server/telematics';

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
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: opts.adminPassword, fixtures: opts.fixtures });
    // A fresh secret per start: tokens die with the in-memory data they refer to.
    const secret = crypto.randomBytes(32).toString('base64url');
    const app = await buildApp({ database, secret, logLevel: opts.logLevel ?? 'warn', entitySchemas: opts.entities });
    const telematics: Telematics = await startTelematics(app, { database, secret, config: { jt808Port: 0, host: '127.0.0.1', simulate: 0, tokenTtlHours: 12 } });
    await app.ready();
    return {
      app,
      database,
      async close() {
        await telematics.close();
        await app.close();
        await database.close();
      },
    };
  } catch (e) {
    await database.close();
    throw e;
  }
}
