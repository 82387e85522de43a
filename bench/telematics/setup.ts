/** A fresh, migrated, demo-seeded database with N bench terminals, and a gateway on it. */

import pino from 'pino';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../server/platform/db/database';
import { migrate } from '../../server/platform/db/migrate';
import { seed } from '../../server/seed/seed';
import { Jt808Gateway } from '../../server/telematics/gateway/server';
import { PositionWriter } from '../../server/telematics/store/writer';
import { freshPostgres } from '../../tests/helpers/testServer';
import { provisionTerminals } from './provision';
import { startDerivation } from '../../server/intelligence';
import { createAlarmEngine } from '../../server/intelligence/alarms/engine';
import type { RaisedAlarm } from '../../server/intelligence/alarms/store';
import { engineDerivers } from '../../server/intelligence/engine';
import { SimTerminal } from '../../server/simulator/terminal';

export interface BenchGateway {
  database: Database;
  /** PostgreSQL: where the database is (for a second pool, such as the derivation thread's). */
  databaseUrl?: string;
  gateway: Jt808Gateway;
  writer: PositionWriter;
  port: number;
  phones: string[];
  storedCount(): Promise<number>;
  close(): Promise<void>;
}

export async function benchGateway(
  kind: 'pglite' | 'postgres',
  terminals: number,
  /** mediaDir: where the gateway keeps uploaded media (absent: media are not stored). */
  opts: { mediaDir?: string } = {},
): Promise<BenchGateway> {
  const pg = kind === 'postgres' ? await freshPostgres() : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url, poolSize: 8 } : { dataDir: 'memory://' });
  await migrate(database);
  await seed(database.db, { demo: true, adminPassword: 'Admin2026x' });
  const phones = await provisionTerminals(database.db, terminals);
  // As a database in service is after an import: the trigram indexes' pending lists made each
  // handshake's lookup 100-300 ms (see bench/telematics/cluster.ts).
  if (pg) await sql`VACUUM ANALYZE`.execute(database.db);
  const writer = new PositionWriter(database.db, {
    batchSize: 2000,
    concurrency: pg ? 4 : 1,
    copyPool: process.env.BENCH_UNNEST ? undefined : database.pool,
  });
  // Thousands of terminals connect at once from a few addresses: the handshake caps and deadline
  // that guard a public gateway are lifted, and the reserve fits the benches' own headroom (1000).
  const gateway = new Jt808Gateway({
    db: database.db,
    writer,
    log: pino({ level: 'warn' }),
    fdReserve: 512,
    mediaDir: opts.mediaDir,
    limits: {
      authTimeoutMs: 120_000,
      handshakeTimeoutMs: 120_000,
      idleTimeoutMs: 600_000,
      maxPending: 1_000_000,
      maxPendingPerAddress: 1_000_000,
    },
  });
  const port = await gateway.listen(0, '0.0.0.0');
  return {
    database,
    databaseUrl: pg?.url,
    gateway,
    writer,
    port,
    phones,
    async storedCount() {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM position`.execute(database.db);
      return r.rows[0].n;
    },
    async close() {
      await gateway.close();
      await database.close();
      await pg?.drop();
    },
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The whole engine on a bench gateway, as bootstrap wires it for one process: the alarm engine
 * announcing what the passes raise (to `onRaised` too), the derivation with every deriver, and one
 * simulated terminal on the gateway's first phone. `close` ends all of them and the gateway.
 */
export async function benchEngine(g: BenchGateway, kind: 'pglite' | 'postgres', onRaised?: (alarms: RaisedAlarm[]) => void) {
  const db = g.database.db;
  const engine = createAlarmEngine({ db, onRaised });
  const derivation = await startDerivation({
    db,
    timeZone: 'Asia/Shanghai',
    sources: [g.writer],
    oneConnection: kind === 'pglite',
    derivers: engineDerivers({ alarms: { onRaised: engine.announce } }),
  });
  const terminal = new SimTerminal({ host: '127.0.0.1', port: g.port, phone: g.phones[0] });
  return {
    derivation,
    terminal,
    async close() {
      terminal.destroy();
      await derivation.close();
      await engine.stop();
      await g.close();
    },
  };
}
