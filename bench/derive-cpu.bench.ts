/**
 * CPU of derivation per position derived (issue 30's budget "CPU per position for derivation
 * reported, at least halved"): all derivers on (trips, ledger, replay levels, alarms with the demo's
 * policies, behaviour), the reports stored first and then derived, so only the passes are timed.
 * - rebuild: each vehicle's whole scripted day (647 reports) rebuilt in one pass;
 * - live: the same day arriving a few reports per vehicle at a time, one pass over all vehicles after each.
 * The figure is the process's CPU (process.cpuUsage: every thread, PGlite's WebAssembly included)
 * in µs per stored position; on PostgreSQL the database's client backends are read from /proc apart.
 *
 *   npx tsx bench/derive-cpu.bench.ts   (BENCH_BACKENDS=pglite,postgres; BENCH_CPU_VEHICLES=50;
 *   BENCH_CPU_MODES=rebuild,live; BENCH_CPU_PER_PASS=3 reports per vehicle per live pass;
 *   DATABASE_PREPARE=0 runs the statements unprepared (PostgreSQL);
 *   BENCH_CPU_PROFILE=/tmp/x.cpuprofile profiles each mode's passes (and, live, the storing between them), for bench/telematics/profileSummary.ts)
 */

import fs from 'node:fs';
import type { Profiler } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/platform/db/tables';
import { DerivationPipeline, type StoredSpan } from '../server/intelligence/pipeline';
import { intelligenceDerivers } from '../server/intelligence';
import { alarmDeriver } from '../server/intelligence/alarms/deriver';
import { behaviourDeriver } from '../server/intelligence/behaviour/deriver';
import { PositionWriter } from '../server/telematics/store/writer';
import { spansOf } from '../server/intelligence/subscription';
import { openDatabase } from '../server/platform/db/database';
import { migrate } from '../server/platform/db/migrate';
import { seed } from '../server/seed/seed';
import { freshPostgres } from '../tests/helpers/testServer';
import { runAsScript, type BenchResult } from './lib';
import { provisionTerminals } from './telematics/provision';
import { CpuWindow } from './telematics/cluster';
import { scriptedDays } from './intelligence.bench';

const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
const VEHICLES = Number(process.env.BENCH_CPU_VEHICLES || 50);
const MODES = (process.env.BENCH_CPU_MODES || 'rebuild,live').split(',');
const PER_PASS = Number(process.env.BENCH_CPU_PER_PASS || 3);
const PROFILE = process.env.BENCH_CPU_PROFILE;
/** DATABASE_PREPARE=0: statements unprepared, as before 2026-12-07 (to compare side by side). */
const PREPARE = process.env.DATABASE_PREPARE !== '0';
const START = Date.parse('2026-11-10T16:00:00Z');

type Day = Awaited<ReturnType<typeof scriptedDays>>[number];

/** With BENCH_CPU_PROFILE: V8's sampling profiler, on while a mode runs (setup left out; one start per mode, as each stop costs). */
const profiler = PROFILE ? new Session() : null;
const profiles: Profiler.Profile[] = [];

/** The passes' profiles as one (node ids shifted apart): self time per function sums over them. */
function writeProfiles(file: string): void {
  const merged: Profiler.Profile = { nodes: [], samples: [], timeDeltas: [], startTime: 0, endTime: 0 };
  let shift = 0;
  for (const p of profiles) {
    const id = (n: number) => n + shift;
    merged.nodes.push(...p.nodes.map((n) => ({ ...n, id: id(n.id), children: n.children?.map(id) })));
    merged.samples!.push(...(p.samples ?? []).map(id));
    merged.timeDeltas!.push(...(p.timeDeltas ?? []));
    merged.endTime += p.endTime - p.startTime;
    shift += Math.max(...p.nodes.map((n) => n.id));
  }
  fs.writeFileSync(file, JSON.stringify(merged));
}

/** The database's client backends (PostgreSQL only; PGlite runs inside this process). */
async function backends(db: Kysely<DB>): Promise<number[]> {
  const r = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`.execute(db);
  return r.rows.map((x) => x.pid);
}

/** Process CPU and (on PostgreSQL) the backends' CPU spent while `work` runs, ms. */
async function cpuOf(db: Kysely<DB>, postgres: boolean, work: () => Promise<void>): Promise<{ processMs: number; databaseMs: number }> {
  const pids = postgres ? await backends(db) : [];
  const window = new CpuWindow(pids);
  const c0 = process.cpuUsage();
  await work();
  const c = process.cpuUsage(c0);
  const after = postgres ? await backends(db) : [];
  return { processMs: (c.user + c.system) / 1000, databaseMs: window.spentMs([...new Set([...pids, ...after])]) };
}

/** Stores tick `from` up to `to` (exclusive) of every vehicle; the spans the writer committed. */
async function store(writer: PositionWriter, fleet: Day[], from: number, to: number): Promise<{ spans: StoredSpan[]; count: number }> {
  const spans: StoredSpan[] = [];
  const listener = (batch: Parameters<typeof spansOf>[0]) => spans.push(...spansOf(batch));
  writer.on('stored', listener);
  let count = 0;
  for (const d of fleet) {
    const records = d.records.slice(from, to);
    count += records.length;
    if (records.length) void writer.add(d.identity, records);
  }
  await writer.flush();
  writer.off('stored', listener);
  return { spans, count };
}

async function measure(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  const pg = kind === 'postgres' ? await freshPostgres() : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url, poolSize: 8, prepare: PREPARE } : { dataDir: 'memory://' });
  const db = database.db;
  try {
    await migrate(database);
    await seed(db, { demo: true, adminPassword: 'Admin2026x', demoAlarms: true });
    const phones = await provisionTerminals(db, VEHICLES * MODES.length);
    const writer = new PositionWriter(db, { concurrency: pg ? 4 : 1 });
    const pipeline = new DerivationPipeline({
      db,
      timeZone: 'Asia/Shanghai',
      derivers: [...intelligenceDerivers(), alarmDeriver(), behaviourDeriver()],
      lingerMs: 0,
      oneConnection: !pg,
    });
    await pipeline.start();
    const out: BenchResult[] = [];
    for (const [m, mode] of MODES.entries()) {
      const fleet = await scriptedDays(db, phones.slice(m * VEHICLES, (m + 1) * VEHICLES), 1);
      const length = Math.max(...fleet.map((d) => d.records.length));
      const end = START + 86_400_000;
      let positions = 0;
      let passes = 0;
      const spent = { processMs: 0, databaseMs: 0 };
      const derived0 = pipeline.stats.positionsDerived;
      const t0 = performance.now();
      const load = os.loadavg()[0];
      await profiler?.post('Profiler.start');
      if (mode === 'rebuild') {
        positions = (await store(writer, fleet, 0, length)).count;
        Object.assign(
          spent,
          await cpuOf(db, !!pg, async () => {
            for (const d of fleet) await pipeline.rebuild(d.vehicleId, { from: START, to: end });
          }),
        );
        passes = fleet.length;
      } else {
        for (let k = 0; k < length; k += PER_PASS) {
          const { spans, count } = await store(writer, fleet, k, k + PER_PASS);
          positions += count;
          passes++;
          const c = await cpuOf(db, !!pg, async () => {
            await pipeline.mark(spans);
            await pipeline.idle();
          });
          spent.processMs += c.processMs;
          spent.databaseMs += c.databaseMs;
        }
      }
      if (profiler) profiles.push((await profiler.post('Profiler.stop')).profile);
      out.push({
        name: `derivation CPU, ${mode === 'rebuild' ? 'a whole day rebuilt per vehicle' : `live passes of ${PER_PASS} reports per vehicle`} (${kind}, all derivers, demo policies)`,
        vehicles: fleet.length,
        positions,
        passes,
        processUsPerPosition: Math.round((spent.processMs * 1000) / positions),
        ...(pg ? { databaseUsPerPosition: Math.round((spent.databaseMs * 1000) / positions) } : {}),
        handedPerPosition: +((pipeline.stats.positionsDerived - derived0) / positions).toFixed(2),
        wallS: +((performance.now() - t0) / 1000).toFixed(1),
        load1: +load.toFixed(2),
      });
    }
    await pipeline.stop();
    return out;
  } finally {
    await database.close();
    await pg?.drop();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
  }
  for (const kind of BACKENDS) out.push(...(await measure(kind)));
  if (PROFILE) writeProfiles(PROFILE);
  return out;
}

if (require.main === module) runAsScript(run);
