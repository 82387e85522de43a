/**
 * The two PostgreSQL storage paths for positions, side by side on the same fresh database: the
 * unnest statement and COPY into a temporary table. Batches of BENCH_BATCH positions from
 * BENCH_VEHICLES vehicles, written one after another for BENCH_SECONDS each, alternating the paths
 * in rounds so load from elsewhere hits both alike. Figures: median positions/s per round, and the
 * client's CPU per position (process.cpuUsage), which the gateway pays on its own cores.
 *
 *   npx tsx bench/position-store.bench.ts   (BENCH_BATCH, BENCH_SECONDS, BENCH_ROUNDS)
 */

import { sql } from 'kysely';
import { openDatabase } from '../server/platform/db/database';
import { migrate } from '../server/platform/db/migrate';
import { seed } from '../server/seed/seed';
import type { PositionRecord } from '../server/platform/telemetry';
import { copyPositions } from '../server/telematics/store/copyPositions';
import { insertPositions } from '../server/telematics/store/writer';
import { freshPostgres } from '../tests/helpers/testServer';
import { runAsScript, type BenchResult } from './lib';
import { median } from './telematics/setup';

const BATCH = Number(process.env.BENCH_BATCH || 2000);
const SECONDS = Number(process.env.BENCH_SECONDS || 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

export async function run(): Promise<BenchResult[]> {
  const pg = await freshPostgres();
  const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: 'Admin2026x' });
    const vehicles = (
      await database.db.selectFrom('vehicle').select(['id', 'terminal_id']).where('terminal_id', 'is not', null).execute()
    ).map((v) => ({ id: v.id, terminalId: v.terminal_id! }));
    let t = Date.parse('2026-11-01T00:00:00Z');
    const batch = (): PositionRecord[] =>
      Array.from({ length: BATCH }, (_, i) => {
        const v = vehicles[i % vehicles.length];
        t += 1000;
        return {
          terminalId: v.terminalId,
          vehicleId: v.id,
          deviceTime: t,
          latitude: 31.2 + (i % 100) * 1e-4,
          longitude: 121.4,
          altitude: 12,
          speed: 42.5,
          direction: 90,
          alarm: 0,
          status: 3,
          acc: true,
          fixed: true,
          mileageKm: 1000 + i / 10,
          fuelL: 50,
          blind: false,
          extras: { signalStrength: 20, satellites: 11, io: { deepSleep: false, sleep: false } },
          dtcs: null,
        };
      });
    const paths = {
      unnest: (r: PositionRecord[]) => insertPositions(database.db, r),
      copy: (r: PositionRecord[]) => copyPositions(database.pool!, r),
    };
    const perS: Record<string, number[]> = { unnest: [], copy: [] };
    const cpuUs: Record<string, number[]> = { unnest: [], copy: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, write] of Object.entries(paths)) {
        let n = 0;
        const cpu0 = process.cpuUsage();
        const t0 = Date.now();
        while (Date.now() - t0 < SECONDS * 1000) {
          const b = batch();
          const keys = await write(b);
          if (keys.size !== b.length) throw new Error(`${name}: ${keys.size} of ${b.length} inserted`);
          n += b.length;
        }
        const cpu = process.cpuUsage(cpu0);
        perS[name].push((n * 1000) / (Date.now() - t0));
        cpuUs[name].push((cpu.user + cpu.system) / n);
      }
    }
    const stored = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM position`.execute(database.db)).rows[0].n;
    return Object.keys(paths).map((name) => ({
      name: `position.store.${name}`,
      batch: BATCH,
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      medianPerS: Math.round(median(perS[name])),
      perRound: perS[name].map(Math.round),
      clientCpuUsPerPosition: Number(median(cpuUs[name]).toFixed(2)),
      storedTotal: stored,
    }));
  } finally {
    await database.close();
    await pg.drop();
  }
}

runAsScript(run);
