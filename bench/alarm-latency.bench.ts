/**
 * Report → alarm latency: N simulated terminals (real TCP) report once a second; every tenth
 * report of each sets the collision bit. Time from sending that report to the alarm engine's
 * `alarm` message reaching a live-hub subscriber (what the WebSocket route sends): gateway, commit,
 * derivation pipeline (its linger included), the alarm deriver, commit, delivery. Every alarm comes
 * from the pass: there is no other path. DESIGN.md budget: p99 < 300 ms at the sustainable rate.
 *
 *   npx tsx bench/alarm-latency.bench.ts   (BENCH_TERMINALS, BENCH_SECONDS, BENCH_BACKENDS, BENCH_DERIVE_BATCH,
 *   BENCH_DERIVE_ALL=1
 *   adds the behaviour deriver after the alarms, as the server runs it; BENCH_DERIVE_WORKERS=2 derives two batches at once;
 *   BENCH_DERIVE_THREAD=1 derives on a thread of its own (PostgreSQL only), as the server does with DATABASE_URL;
 *   BENCH_LOAD_TERMINALS and BENCH_LOAD_RATE add that many other terminals, each reporting that many times a second from
 *   a separate client process: the latency measured while the server ingests at that rate; BENCH_PROBE=FireOn turns
 *   the ignition off for the report before each probe instead of setting the collision bit, under a FireOn policy;
 *   BENCH_PROBE=Fault lists a trouble code on the probe, the other reports none, under a Fault policy; BENCH_PROBE=FenceIn
 *   puts the probe inside a fence (no dwell) linked to the probe vehicles, the other reports outside it; BENCH_PROBE=OverSpeed
 *   drives the probe at 120 km/h, the other reports at 40, under an OverSpeed policy of 100 km/h held for no time;
 *   BENCH_PROBE=Trail turns the ignition on, then off for eight reports parked, and puts the probe 400 m away, under a
 *   Trail policy of the default 300 m; BENCH_PROBE=FuelDrain drives for one report, parks for eight at 200 L (from
 *   the third 150 L, a drain: fuel.ts) and probes at the second report at 150 L, where the run first reads as
 *   drained, under a FuelDrain policy)
 */

import { sql } from 'kysely';
import { startDerivation } from '../server/intelligence';
import { createAlarmEngine } from '../server/intelligence/alarms/engine';
import { engineDerivers } from '../server/intelligence/engine';
import { startDerivationThread } from '../server/intelligence/thread/derivationThread';
import { notifyDispatcher } from '../server/notify/dispatcher';
import { SimTerminal } from '../server/simulator/terminal';
import { LiveHub, type LiveMessage } from '../server/telematics/live/hub';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile, runAsScript, type BenchResult } from './lib';
import { benchGateway, sleep } from './telematics/setup';
import { spawnClients, sum } from './telematics/clients';

const TERMINALS = Number(process.env.BENCH_TERMINALS || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
const CRASH_BIT = 1 << 29;
/** Vehicles per derivation transaction (the pipeline's default unless set; 1 = one at a time). */
const DERIVE_BATCH = process.env.BENCH_DERIVE_BATCH ? Number(process.env.BENCH_DERIVE_BATCH) : undefined;
const DERIVE_ALL = process.env.BENCH_DERIVE_ALL === '1';
const DERIVE_THREAD = process.env.BENCH_DERIVE_THREAD === '1';
const DERIVE_WORKERS = process.env.BENCH_DERIVE_WORKERS ? Number(process.env.BENCH_DERIVE_WORKERS) : undefined;
const LOAD_TERMINALS = Number(process.env.BENCH_LOAD_TERMINALS || 0);
const LOAD_RATE = Number(process.env.BENCH_LOAD_RATE || 1);
/** The alarm each tenth report raises: a collision (the alarm word), an ignition (FireOn, a policy type), a trouble code, a fence entry, speeding, a tow or a drain. */
const PROBES = ['Crash', 'FireOn', 'Fault', 'FenceIn', 'OverSpeed', 'Trail', 'FuelDrain'] as const;
const PROBE = PROBES.find((p) => p === process.env.BENCH_PROBE) ?? 'Crash';
/** Trail's probe: 400 m east of where the vehicle is parked (at latitude 31.2), beyond the policy's default 300. */
const TOW_DEGREES = 400 / (111_320 * Math.cos((31.2 * Math.PI) / 180));
/** The probe fence: 3 km round a point 9.5 km east of where the probe terminals report. */
const FENCE = { longitude: 121.5, latitude: 31.21, radiusM: 3000 };

const benchLog = {
  info: () => {},
  warn: (o: object, m: string) => console.error(m, o),
  error: (o: object, m: string) => console.error(m, o),
};

/** p50 and p99 of some latencies, ms. */
function spread(values: readonly number[]): { p50: number; p99: number } {
  const s = [...values].sort((a, b) => a - b);
  return { p50: +percentile(s, 50).toFixed(1), p99: +percentile(s, 99).toFixed(1) };
}

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const g = await benchGateway(kind, TERMINALS + LOAD_TERMINALS);
  const probes = g.phones.slice(0, TERMINALS);
  const db = g.database.db;
  const hub = new LiveHub();
  g.writer.on('stored', hub.publish);
  // Sent probe reports by vehicle and device time → when they were sent.
  const sent = new Map<string, number>();
  const engine = createAlarmEngine({ db, log: benchLog });
  const notifier = notifyDispatcher({ db, sink: hub, timeZone: 'Asia/Shanghai' });
  // Report → the engine announcing it (before the notification rules and the hub).
  const announceLatencies: number[] = [];
  engine.setListener((alarms) => {
    const now = performance.now();
    for (const a of alarms) {
      const at = sent.get(`${a.vehicleId}|${a.begin}`);
      if (a.type === PROBE && at !== undefined) announceLatencies.push(now - at);
    }
    notifier.onRaised(alarms);
  });
  // A console rule for collisions at the root, for the bench's subscriber (the root administrator).
  const admin = (
    await sql<{
      id: number;
    }>`SELECT m.id FROM member m JOIN organisation o ON o.id = m.org_id WHERE o.parent_id IS NULL ORDER BY m.id LIMIT 1`.execute(db)
  ).rows[0].id;
  await sql`INSERT INTO notify (org_id, name, alarm_type, channel, enabled) SELECT id, 'bench probe', ${PROBE}, 'platform', true FROM organisation WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(
    db,
  );
  if (PROBE === 'FireOn' || PROBE === 'Fault' || PROBE === 'OverSpeed' || PROBE === 'Trail' || PROBE === 'FuelDrain')
    await sql`INSERT INTO policy (org_id, name, alarm_type, threshold, enabled) SELECT id, 'bench probe', ${PROBE}, ${PROBE === 'OverSpeed' ? 100 : null}, true FROM organisation WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(
      db,
    );
  const sources = [g.writer, g.gateway.obdWriter];
  const derivation =
    DERIVE_THREAD && g.databaseUrl
      ? await startDerivationThread({
          databaseUrl: g.databaseUrl,
          timeZone: 'Asia/Shanghai',
          behaviour: DERIVE_ALL,
          batchSize: DERIVE_BATCH,
          workers: DERIVE_WORKERS,
          sources,
          onRaised: engine.announce,
          log: benchLog,
        })
      : await startDerivation({
          db,
          timeZone: 'Asia/Shanghai',
          sources,
          derivers: engineDerivers({ alarms: { onRaised: engine.announce }, behaviour: DERIVE_ALL }),
          batchSize: DERIVE_BATCH,
          oneConnection: kind === 'pglite',
          workers: DERIVE_WORKERS,
        });
  const vehicles = await sql<{
    id: number;
    terminal_no: string;
  }>`SELECT v.id, t.terminal_no FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ANY (${probes}::text[])`.execute(
    db,
  );
  const vehicleOf = new Map(vehicles.rows.map((r) => [r.terminal_no, r.id]));
  if (PROBE === 'FenceIn') {
    const fence = await sql<{ id: number }>`
      INSERT INTO fence (org_id, name, fence_type, geometry, dwell_seconds, alarm_on_exit)
      SELECT id, 'bench probe', 'circle', ${JSON.stringify({ center: [FENCE.longitude, FENCE.latitude], radius: FENCE.radiusM })}::jsonb, 0, false FROM organisation WHERE parent_id IS NULL ORDER BY id LIMIT 1
      RETURNING id`.execute(db);
    await sql`INSERT INTO vehicle_fence (fence_id, vehicle_id) SELECT ${fence.rows[0].id}, unnest(${[...vehicleOf.values()]}::int[])`.execute(
      db,
    );
  }
  const latencies: number[] = [];
  // Report → its batch committed: the part of the latency before any alarm path starts.
  const storeLatencies: number[] = [];
  g.writer.on('stored', (batch) => {
    const now = performance.now();
    for (const { record } of batch.inserted) {
      const at = sent.get(`${record.vehicleId}|${record.deviceTime}`);
      if (at !== undefined) storeLatencies.push(now - at);
    }
  });
  hub.add({
    orgPath: '/',
    memberId: admin,
    backlog: () => 0,
    send: (json) => {
      const m = JSON.parse(json) as LiveMessage;
      if (m.type !== 'alarm') return;
      const now = performance.now();
      for (const a of m.items) {
        const key = `${a.vehicleId}|${Date.parse(a.begin)}`;
        const at = sent.get(key);
        if (a.type === PROBE && at !== undefined) {
          latencies.push(now - at);
          sent.delete(key);
        }
      }
    },
  });
  // The load, in its own process so its clients do not share the server's event loop.
  const load = LOAD_TERMINALS
    ? spawnClients(g.port, g.phones.slice(TERMINALS), LOAD_TERMINALS, 1, {
        intervalMs: 1000 / LOAD_RATE,
        timeStepMs: 1000,
        ackTimeoutMs: 600_000,
        connectConcurrency: 50,
      })
    : [];
  await Promise.all(load.map((c) => c.started()));
  const storedAtStart = g.writer.stats.inserted;
  const terminals = probes.map((phone) => new SimTerminal({ host: '127.0.0.1', port: g.port, phone, ackTimeoutMs: 600_000 }));
  for (let i = 0; i < terminals.length; i += 50) await Promise.all(terminals.slice(i, i + 50).map((t) => t.connect()));
  // How long the server's event loop (gateway, store, derivation: one process) was held.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const t0 = Date.now();
  let tick = 0;
  try {
    while (Date.now() - t0 < SECONDS * 1000) {
      // One second per tick: two ticks bunched by a busy loop in one wall-clock second would
      // otherwise share a device time, and the second report be dropped as a duplicate.
      const deviceTime = Math.floor(t0 / 1000) * 1000 + tick * 1000;
      terminals.forEach((t, i) => {
        const cycle = (tick + i) % 10;
        // FuelDrain: driving at 1, parked at 200 L from 2 to 7, at 150 L from 8: the run reads as drained at 9.
        const probe = cycle === (PROBE === 'FuelDrain' ? 9 : 0);
        // A first report follows nothing: no ignition, trouble code or fence side to compare with
        // (and a vehicle whose data begins speeding may have been speeding before).
        // A tow is told from where the ignition went off, a drain from where the vehicle parked: a vehicle first seen parked waits for its next cycle.
        const measured = probe && (PROBE === 'Crash' || tick >= (PROBE === 'Trail' || PROBE === 'FuelDrain' ? 10 : 1));
        if (measured) sent.set(`${vehicleOf.get(t.opts.phone)}|${deviceTime}`, performance.now());
        const ignitionOff = PROBE === 'FireOn' && cycle === 9;
        // Trail: the ignition on, off and parked for eight reports, then the probe 400 m east.
        const parked = (PROBE === 'Trail' && cycle !== 1) || (PROBE === 'FuelDrain' && cycle !== 1);
        const longitude = (PROBE === 'FenceIn' && probe ? FENCE.longitude : 121.4) + (PROBE === 'Trail' && probe ? TOW_DEGREES : 0);
        const extras =
          PROBE === 'Fault'
            ? { extras: { obd: { dtcs: probe ? ['P0301'] : [] } } }
            : PROBE === 'FuelDrain'
              ? { extras: { fuelL: cycle >= 2 && cycle <= 7 ? 200 : 150 } }
              : {};
        const speed =
          ignitionOff || (parked && !(probe && PROBE === 'Trail'))
            ? 0
            : PROBE === 'OverSpeed' && measured
              ? 120
              : PROBE === 'Trail'
                ? 30
                : 40;
        const accOn = !ignitionOff && !parked;
        t.report({
          time: deviceTime,
          latitude: 31.2 + i * 1e-4,
          longitude,
          speed,
          alarm: probe && PROBE === 'Crash' ? CRASH_BIT : 0,
          status: { accOn, fixed: true },
          ...extras,
        });
      });
      tick++;
      await sleep(1000 - ((Date.now() - t0) % 1000));
    }
    const storedPerS = Math.round((g.writer.stats.inserted - storedAtStart) / ((Date.now() - t0) / 1000));
    await sleep(3000);
    loopDelay.disable();
    const s = [...latencies].sort((a, b) => a - b);
    const stats = await derivation.stats();
    return {
      name: `alarm.latency.${kind}, ${PROBE}${DERIVE_BATCH ? `, ${DERIVE_BATCH} per transaction` : ''}${DERIVE_ALL ? ', all derivers' : ''}${DERIVE_WORKERS ? `, ${DERIVE_WORKERS} workers` : ''}${DERIVE_THREAD && kind === 'postgres' ? ', own thread' : ''}${LOAD_TERMINALS ? `, load ${LOAD_TERMINALS}×${LOAD_RATE}/s` : ''}`,
      terminals: TERMINALS,
      reportsPerS: TERMINALS + LOAD_TERMINALS * LOAD_RATE,
      storedPerS,
      seconds: SECONDS,
      alarms: s.length,
      undelivered: sent.size,
      p50Ms: +percentile(s, 50).toFixed(1),
      p95Ms: +percentile(s, 95).toFixed(1),
      p99Ms: +percentile(s, 99).toFixed(1),
      maxMs: +(s[s.length - 1] ?? NaN).toFixed(1),
      storedMs: spread(storeLatencies),
      announcedMs: spread(announceLatencies),
      eventLoopDelayMs: {
        p50: +(loopDelay.percentile(50) / 1e6).toFixed(1),
        p99: +(loopDelay.percentile(99) / 1e6).toFixed(1),
        max: +(loopDelay.max / 1e6).toFixed(1),
      },
      derivedWindows: stats.windows,
      positionsDerived: stats.positionsDerived,
      positionsRead: stats.positionsRead,
      batches: stats.batches,
      longestBatchMs: Math.round(stats.longestBatchMs),
      // Where the passes went (ms per phase, summed over the run).
      phaseMs: Object.fromEntries(Object.entries(stats.phaseMs).map(([k, v]) => [k, Math.round(v)])),
    };
  } finally {
    const loadStats = await Promise.all(load.map((c) => c.stop()));
    if (loadStats.length) console.error(`load: ${sum(loadStats, 'acked')} acknowledged`);
    for (const t of terminals) t.destroy();
    await derivation.close();
    await g.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) out.push(await runOn(kind));
  return out;
}

if (require.main === module) runAsScript(run);
