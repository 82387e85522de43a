/**
 * Derived data budgets (DESIGN.md, issue 12):
 * - derivation keeps pace with ingest: N vehicles' scripted days stored through the position writer
 *   while the pipeline derives them, in the same run; stored/s and derived/s, and the lag;
 * - one vehicle's month at 10 s reports (259,200 points) replayed with maxPoints 5,000 (p95 < 300 ms),
 *   and streamed raw (heap growth while streaming);
 * - the daily ledger of 1,000 vehicles × 31 days by day (< 200 ms);
 * - vehicleCount and monitor/query over 10,000 vehicles (< 100 ms).
 *
 *   npx tsx bench/intelligence.bench.ts   (BENCH_BACKENDS=pglite,postgres; BENCH_PARTS=derive,read; BENCH_DERIVE_VEHICLES=200;
 *   BENCH_DERIVE_BATCH=1 derives one vehicle per transaction, for comparison; BENCH_DERIVE_ALL=1 adds the alarm and
 *   behaviour derivers, as the server runs them; BENCH_DERIVE_WORKERS=2 derives two batches at once; BENCH_DERIVE_DAYS=3 days per
 *   vehicle; BENCH_DERIVE_RATE=10000 offers that many positions/s and samples the derivation's lag; BENCH_READS=monitor,ledger,replay
 *   picks the read budgets, default all; BENCH_ROUNDS=30 samples of each; BENCH_DEMO_ALARMS=1 seeds the demo's alarm policies)
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/platform/db/tables';
import { DerivationPipeline } from '../server/intelligence/pipeline';
import { intelligenceDerivers } from '../server/intelligence';
import { alarmDeriver } from '../server/intelligence/alarms/deriver';
import { behaviourDeriver } from '../server/intelligence/behaviour/deriver';
import { playLegs, type Leg } from '../server/simulator/dayScript';
import { toRecord, type PositionRecord, type TerminalIdentity } from '../server/telematics/store/records';
import { PositionWriter } from '../server/telematics/store/writer';
import { subscribeStored } from '../server/intelligence/subscription';
import type { LocationBody } from '../server/telematics/jt808/codec';
import { openDatabase } from '../server/platform/db/database';
import { migrate } from '../server/platform/db/migrate';
import { seed } from '../server/seed/seed';
import { freshPostgres } from '../tests/helpers/testServer';
import { withVehicleBench } from './fixtures';
import { percentile, runAsScript, summarise, type BenchResult } from './lib';
import { provisionTerminals } from './telematics/provision';
import { createMonthPartition, monthOf } from '../server/telematics/store/partitions';
import { readTrackForSimplify } from '../server/reports/trackLevel';

const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
const DERIVE_VEHICLES = Number(process.env.BENCH_DERIVE_VEHICLES || 200);
/** BENCH_DEMO_ALARMS=1: the demo's alarm policies (a 4 h Fatigue rule among them, as `npm start` seeds), so windows reach back hours. */
const DEMO_ALARMS = process.env.BENCH_DEMO_ALARMS === '1';
/** Vehicles per derivation transaction (the pipeline's default unless set; 1 = one at a time). */
const DERIVE_BATCH = process.env.BENCH_DERIVE_BATCH ? Number(process.env.BENCH_DERIVE_BATCH) : undefined;
/** The server's full set of derivers (alarms and behaviour after trips and ledger), not only this feature's. */
const DERIVE_ALL = process.env.BENCH_DERIVE_ALL === '1';
/** Batches derived at once (the pipeline's default unless set). */
const DERIVE_WORKERS = process.env.BENCH_DERIVE_WORKERS ? Number(process.env.BENCH_DERIVE_WORKERS) : undefined;
/** Scripted days per vehicle, one after the other (longer runs). */
const DERIVE_DAYS = Number(process.env.BENCH_DERIVE_DAYS || 1);
/**
 * Positions per second offered to the store (all vehicles together); unset: as fast as the store
 * takes them. With a rate the bench samples the derivation's lag behind the store while it runs,
 * which is what "keeps pace" means: the lag stays bounded instead of growing with the run.
 */
const DERIVE_RATE = process.env.BENCH_DERIVE_RATE ? Number(process.env.BENCH_DERIVE_RATE) : undefined;
const MONTH_POINTS = 30 * 8640;
const LEDGER_VEHICLES = 1000;
const FLEET = 10_000;
/** Which parts to run: derive, read (default both). */
const PARTS = (process.env.BENCH_PARTS || 'derive,read').split(',');
/** Which read budgets to measure: monitor (vehicleCount, monitor/query), ledger, replay (default all). */
const READS = (process.env.BENCH_READS || 'monitor,ledger,replay').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 30);

const DAY_LEGS: Leg[] = [
  { kind: 'park', minutes: 420 },
  { kind: 'drive', minutes: 45, kmh: 40, heading: 90 },
  { kind: 'idle', minutes: 3 },
  { kind: 'drive', minutes: 30, kmh: 40, heading: 0 },
  { kind: 'park', minutes: 60, refuelL: 80 },
  { kind: 'drive', minutes: 60, kmh: 50, heading: 270 },
  { kind: 'park', minutes: 120 },
  { kind: 'drive', minutes: 60, kmh: 35, heading: 180 },
  { kind: 'park', minutes: 652 },
];

/** A decoded-like body for toRecord (the store path from the decoder on). */
function bodyOf(r: ReturnType<typeof playLegs>[number]): LocationBody {
  const status = r.status as { accOn: boolean };
  return {
    alarm: { raw: 0 },
    status: { raw: status.accOn ? 3 : 2, accOn: status.accOn, fixed: true },
    latitude: r.latitude,
    longitude: r.longitude,
    altitude: 10,
    speed: r.speed ?? 0,
    direction: r.direction ?? 0,
    timestamp: Number(r.time),
    extras: { mileageKm: r.extras?.mileageKm, fuelL: r.extras?.fuelL },
  } as unknown as LocationBody; // only the fields toRecord reads
}

/**
 * The provisioned terminals' vehicles, each with `dayCount` scripted days from 2026-11-10 (local
 * midnight in Shanghai) as stored records, in terminal order (also bench/derive-cpu.bench.ts's).
 */
export async function scriptedDays(
  db: Kysely<DB>,
  phones: string[],
  dayCount: number,
): Promise<Array<{ vehicleId: number; identity: TerminalIdentity; records: PositionRecord[] }>> {
  const ids = await sql<{ terminal_id: number; vehicle_id: number }>`
    SELECT t.id AS terminal_id, v.id AS vehicle_id FROM terminal t JOIN vehicle v ON v.terminal_id = t.id
    WHERE t.terminal_no = ANY(${phones}::text[]) ORDER BY t.id`.execute(db);
  const start = Date.parse('2026-11-10T16:00:00Z');
  return ids.rows.map((row, i) => {
    const identity: TerminalIdentity = {
      terminalId: row.terminal_id,
      terminalNo: phones[i],
      sim: '',
      orgId: 0,
      orgPath: '/',
      vehicleId: row.vehicle_id,
      licence: null,
      vehicleOrgPath: null,
    };
    // Days follow each other: the script's state (time, place, odometer, fuel) carries over.
    const state = { time: start, latitude: 31.2 + i * 0.001, longitude: 121.4, odometerKm: 10_000, fuelL: 200 };
    const reports = Array.from({ length: dayCount }, () => playLegs(state, DAY_LEGS)).flat();
    return { vehicleId: row.vehicle_id, identity, records: reports.map((r) => toRecord(identity, bodyOf(r), false)!) };
  });
}

/**
 * The derivation's lag behind the store, sampled every 500 ms: how long ago the oldest tick not yet
 * derived for every vehicle was handed to the store (a vehicle is derived up to its oldest mark, or its
 * watermark when it has none). Every vehicle plays the same script, so a tick's
 * device time is the same for all of them.
 */
function sampleLag(db: Kysely<DB>, vehicleIds: number[], tickTimes: number[]) {
  const handedAt: number[] = [];
  const samples: number[] = [];
  let reading = Promise.resolve();
  const read = async () => {
    const r = await sql<{ covered: number | null; vehicles: number }>`
      SELECT (extract(epoch FROM min(COALESCE((SELECT min(m.pending_from) FROM derive_mark m WHERE m.vehicle_id = d.vehicle_id) - interval '1 millisecond', watermark))) * 1000)::float8 AS covered, count(*)::int AS vehicles
      FROM derive_state d WHERE vehicle_id = ANY(${vehicleIds}::int[])`.execute(db);
    const { covered, vehicles } = r.rows[0];
    const now = Date.now();
    if (!handedAt.length) return;
    // Ticks up to `covered` are derived everywhere (a vehicle with no state yet has derived nothing).
    let k = -1;
    if (covered !== null && vehicles === vehicleIds.length) while (k + 1 < handedAt.length && tickTimes[k + 1] <= Number(covered)) k++;
    samples.push((now - (k + 1 < handedAt.length ? handedAt[k + 1] : now)) / 1000);
  };
  const timer = setInterval(() => (reading = reading.then(read, read)), 500);
  return {
    handed: (k: number) => void (handedAt[k] = Date.now()),
    async stop() {
      clearInterval(timer);
      await reading;
      const mean = (a: number[]) => (a.length ? +(a.reduce((x, y) => x + y, 0) / a.length).toFixed(2) : 0);
      const half = Math.floor(samples.length / 2);
      const sorted = [...samples].sort((a, b) => a - b);
      // Keeping pace: the second half's mean lag no larger than the first half's (bounded, not growing).
      return {
        samples: samples.length,
        p50: +percentile(sorted, 50).toFixed(2),
        p95: +percentile(sorted, 95).toFixed(2),
        max: sorted.at(-1) ?? 0,
        firstHalfMean: mean(samples.slice(0, half)),
        secondHalfMean: mean(samples.slice(half)),
      };
    },
  };
}

async function derivePace(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const pg = kind === 'postgres' ? await freshPostgres() : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url, poolSize: 8 } : { dataDir: 'memory://' });
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: 'Admin2026x', demoAlarms: DEMO_ALARMS });
    const phones = await provisionTerminals(database.db, DERIVE_VEHICLES);
    const days = await scriptedDays(database.db, phones, DERIVE_DAYS);
    const writer = new PositionWriter(database.db, { concurrency: pg ? 4 : 1 });
    const derivers = DERIVE_ALL ? [...intelligenceDerivers(), alarmDeriver(), behaviourDeriver()] : intelligenceDerivers();
    const pipeline = new DerivationPipeline({
      db: database.db,
      timeZone: 'Asia/Shanghai',
      derivers,
      lingerMs: 200,
      batchSize: DERIVE_BATCH,
      oneConnection: !pg,
      workers: DERIVE_WORKERS,
    });
    subscribeStored([writer], pipeline);
    await pipeline.start();
    // Live-like: every vehicle reports its next position, tick after tick, as fast as the store
    // takes them or at the offered rate.
    const t0 = Date.now();
    const longest = Math.max(...days.map((d) => d.records.length));
    const tickMs = DERIVE_RATE ? (days.length * 1000) / DERIVE_RATE : 0;
    const lag = DERIVE_RATE
      ? sampleLag(
          database.db,
          days.map((d) => d.vehicleId),
          days[0].records.map((r) => r.deviceTime),
        )
      : null;
    let total = 0;
    for (let k = 0; k < longest; k++) {
      const acks: Array<Promise<void>> = [];
      for (const d of days) if (d.records[k]) acks.push(writer.add(d.identity, [d.records[k]]));
      total += acks.length;
      lag?.handed(k);
      // Reports arrive over sockets: the loop yields between ticks, so the pipeline runs meanwhile.
      if (writer.saturated) await Promise.all(acks);
      else await new Promise((r) => setImmediate(r));
      // The offered rate: the next tick waits for its moment (load generation, not a measurement).
      const due = t0 + (k + 1) * tickMs - Date.now();
      if (due > 1) await new Promise((r) => setTimeout(r, due));
    }
    await writer.flush();
    const storedMs = Date.now() - t0;
    await pipeline.idle();
    const derivedMs = Date.now() - t0;
    const lagS = await lag?.stop();
    const trips = await sql<{ n: number }>`SELECT count(*)::int AS n FROM trip`.execute(database.db);
    await pipeline.stop();
    return {
      name: `derivation pace (${kind}${DERIVE_BATCH ? `, ${DERIVE_BATCH} per transaction` : ''}${DERIVE_ALL ? ', all derivers' : ''}${DEMO_ALARMS ? ', demo policies' : ''}${DERIVE_WORKERS ? `, ${DERIVE_WORKERS} workers` : ''}${DERIVE_RATE ? `, ${DERIVE_RATE}/s offered` : ''})`,
      vehicles: DERIVE_VEHICLES,
      days: DERIVE_DAYS,
      positions: total,
      ...(lagS ? { lagS } : {}),
      storedPerS: Math.round((total * 1000) / storedMs),
      derivedPerS: Math.round((total * 1000) / derivedMs),
      lagAfterStoreMs: derivedMs - storedMs,
      windows: pipeline.stats.windows,
      // Positions read from the database per position stored: 1 when each pass reads only what is new.
      readPerStored: +(pipeline.stats.positionsRead / total).toFixed(2),
      handedPerStored: +(pipeline.stats.positionsDerived / total).toFixed(2),
      phaseMs: Object.fromEntries(Object.entries(pipeline.stats.phaseMs).map(([k, v]) => [k, Math.round(v)])),
      trips: trips.rows[0].n,
    };
  } finally {
    await database.close();
    await pg?.drop();
  }
}

type Call = (method: 'GET' | 'POST', url: string, payload?: object) => Promise<{ ms: number; body: string }>;

/** vehicleCount and monitor/query over the whole fleet, quiet and while 500 vehicles report between answers. */
async function monitorBudgets(kind: string, db: Kysely<DB>, call: Call, fleet: number): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  // Latest state for every vehicle (the live map's source).
  await sql`INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction, acc, mileage_km, fuel_l)
    SELECT id, 0, now() - (id % 600) * interval '1 second', 31 + (id % 1000) / 1000.0, 121 + (id % 997) / 1000.0, (id % 80), id % 360, id % 3 = 0, 10000 + id, 100
    FROM vehicle`.execute(db);
  await sql`ANALYZE vehicle_state`.execute(db);
  const counts: number[] = [];
  const monitor: number[] = [];
  const monitorItems: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    counts.push((await call('POST', '/api/vehicle/index/vehicleCount', {})).ms);
    // The console's form (columns), and the one object per vehicle form.
    monitor.push((await call('POST', '/api/vehicle/monitor/query', { format: 'columns' })).ms);
    monitorItems.push((await call('POST', '/api/vehicle/monitor/query', {})).ms);
  }
  out.push({ name: `vehicleCount, ${fleet} vehicles (${kind})`, ...summarise(counts) });
  out.push({ name: `monitor/query as columns, ${fleet} vehicles (${kind})`, ...summarise(monitor) });
  out.push({ name: `monitor/query as items, ${fleet} vehicles (${kind})`, ...summarise(monitorItems) });

  // A live fleet: 500 vehicles report between two answers (10,000 reporting every 20 s, a map asking every second).
  const live: number[] = [];
  const liveCounts: number[] = [];
  const since: number[] = [];
  let round = 0;
  const report = () =>
    sql`UPDATE vehicle_state SET latitude = latitude + 0.0001, device_time = device_time + interval '20 seconds', received_at = now()
        WHERE vehicle_id % 20 = ${round++ % 20}`.execute(db);
  for (let i = 0; i < ROUNDS; i++) {
    await report();
    const answer = await call('POST', '/api/vehicle/monitor/query', { format: 'columns' });
    live.push(answer.ms);
    await report();
    liveCounts.push((await call('POST', '/api/vehicle/index/vehicleCount', {})).ms);
    // The live map's reconnect: only what changed after its last answer (when the server has `since`).
    const asOf = (JSON.parse(answer.body) as { asOf?: string }).asOf;
    if (asOf) {
      await report();
      since.push((await call('POST', '/api/vehicle/monitor/query', { format: 'columns', criteria: { since: asOf } })).ms);
    }
  }
  out.push({ name: `monitor/query as columns, 500 of ${fleet} vehicles reporting between answers (${kind})`, ...summarise(live) });
  out.push({ name: `vehicleCount, 500 of ${fleet} vehicles reporting between answers (${kind})`, ...summarise(liveCounts) });
  if (since.length)
    out.push({ name: `monitor/query since the previous answer, 1,000 of ${fleet} vehicles changed (${kind})`, ...summarise(since) });
  return out;
}

/** The ledger by day and per vehicle over 1,000 vehicles × 31 days. */
async function ledgerBudget(kind: string, db: Kysely<DB>, call: Call, vehicles: number[]): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const ledgerIds = vehicles.slice(0, LEDGER_VEHICLES);
  await sql`INSERT INTO ledger_day (vehicle_id, day, org_id, mileage_km, fuel_l, refuel_l, drain_l, driving_s, idle_s, trip_count, max_speed, cost)
    SELECT v.id, d::date, v.org_id, 100 + v.id % 50, 30, 0, 0, 18000, 600, 5, 80, 215
    FROM vehicle v, generate_series('2026-10-01'::date, '2026-10-31'::date, interval '1 day') AS d
    WHERE v.id = ANY(${ledgerIds}::int[])`.execute(db);
  await sql`ANALYZE ledger_day`.execute(db);
  const byDay: number[] = [];
  const perVehicle: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    byDay.push(
      (
        await call('POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByDay', {
          criteria: { begin: '2026-10-01', end: '2026-10-31' },
        })
      ).ms,
    );
    perVehicle.push(
      (await call('POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuel', { criteria: { begin: '2026-10-01', end: '2026-10-31' } })).ms,
    );
  }
  out.push({ name: `ledger by day, ${LEDGER_VEHICLES} vehicles × 31 days (${kind})`, ...summarise(byDay) });
  out.push({ name: `ledger per vehicle, ${LEDGER_VEHICLES} vehicles × 31 days (${kind})`, ...summarise(perVehicle) });
  return out;
}

async function readBudgets(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  return withVehicleBench(kind, FLEET, async ({ database, app, token }) => {
    const db = database.db;
    const out: BenchResult[] = [];
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const t = performance.now();
      const r = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      return { ms: performance.now() - t, body: r.body };
    };
    const vehicles = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id`.execute(db)).rows.map((r) => r.id);

    if (READS.includes('monitor')) out.push(...(await monitorBudgets(kind, db, call, vehicles.length)));

    // The ledger: 1,000 vehicles × 31 days.
    if (READS.includes('ledger')) out.push(...(await ledgerBudget(kind, db, call, vehicles)));
    if (READS.includes('replay')) out.push(...(await replayReads(kind, db, app, token, call, vehicles[0])));
    return out;
  });
}

async function replayReads(
  kind: string,
  db: Kysely<DB>,
  app: FastifyInstance,
  token: string,
  call: Call,
  vehicleId: number,
): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  // One vehicle's month at 10 s reports: a drive around a block grid with stops.
  const from = Date.parse('2026-10-01T00:00:00Z');
  // The month's partition, as partition maintenance keeps them (not the DEFAULT catch-all).
  await createMonthPartition(db, 'position', monthOf(new Date(from)));
  await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, direction, acc, fixed, mileage_km)
    SELECT 999999, ${new Date(from)}::timestamptz + n * interval '10 seconds', ${vehicleId},
           31.2 + 0.01 * sin(n / 500.0) + 0.0001 * (n % 37), 121.4 + 0.01 * cos(n / 700.0),
           CASE WHEN n % 360 < 60 THEN 0 ELSE 40 END, (n / 50) % 360, n % 360 >= 30, true, 10000 + n * 0.1
    FROM generate_series(0, ${MONTH_POINTS - 1}) AS n`.execute(db);
  await sql`ANALYZE position`.execute(db);
  const to = from + MONTH_POINTS * 10_000;
  // Derived as the server would have derived it while the month arrived (trips, stops, and any level the replay reads).
  const t0 = performance.now();
  await new DerivationPipeline({ db, timeZone: 'Asia/Shanghai', derivers: intelligenceDerivers() }).rebuild(vehicleId, { from, to });
  await sql`ANALYZE`.execute(db);
  out.push({ name: `month of ${MONTH_POINTS} points derived in one rebuild (${kind})`, ms: Math.round(performance.now() - t0) });
  const range = { vehicleId, begin: new Date(from).toISOString(), end: new Date(to).toISOString() };
  // The month (the ten-minute level), and its first week (the one-minute level).
  for (const [label, end, points] of [
    ['month', to, MONTH_POINTS],
    ['first week', from + 7 * 86_400_000, 7 * 8640],
  ] as const) {
    const replay: number[] = [];
    let kept = 0;
    for (let i = 0; i < 12; i++) {
      const r = await call('POST', '/api/vehicle/track/replay', { ...range, end: new Date(end).toISOString(), maxPoints: 5000 });
      replay.push(r.ms);
      kept = (JSON.parse(r.body) as { points: unknown[] }).points.length;
    }
    // Where the simplified replay read the range from (a level, or every raw report).
    const { source } = await readTrackForSimplify(db, vehicleId, from, end, 5000);
    out.push({ name: `replay of the ${label}, ${points} points, with maxPoints 5,000 (${kind})`, kept, source, ...summarise(replay) });
  }

  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/vehicle/track/replay',
    headers: { authorization: `Bearer ${token}` },
    payload: range,
    payloadAsStream: true,
  });
  let bytes = 0;
  for await (const chunk of res.stream()) bytes += (chunk as Buffer).length;
  clearInterval(sampler);
  out.push({
    name: `raw replay of ${MONTH_POINTS} points, streamed (${kind})`,
    ms: Math.round(performance.now() - t),
    mb: +(bytes / 1e6).toFixed(1),
    peakHeapGrowthMb: +((peak - heap0) / 1e6).toFixed(1),
  });
  return out;
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) {
    if (PARTS.includes('derive')) out.push(await derivePace(kind));
    if (PARTS.includes('read')) out.push(...(await readBudgets(kind)));
  }
  return out;
}

if (require.main === module) runAsScript(run);
