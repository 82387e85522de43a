/**
 * Report → alarm latency: N simulated terminals (real TCP) report once a second; every tenth
 * report of each sets the collision bit. Time from sending that report to the alarm engine's
 * `alarm` message reaching a live-hub subscriber (what the WebSocket route sends): gateway, commit,
 * derivation pipeline (its 200 ms linger included), the alarm deriver, commit, delivery.
 * DESIGN.md budget: p99 < 1 s at the ingest budget.
 *
 *   npx tsx bench/alarm-latency.bench.ts   (BENCH_TERMINALS, BENCH_SECONDS, BENCH_BACKENDS, BENCH_DERIVE_BATCH,
 *   BENCH_BITS_AFTER_PASS=1 leaves the alarm word's alarms to the derivation pass, for comparison)
 */

import { sql } from 'kysely';
import { startDerivation } from '../server/intelligence';
import { createAlarmEngine } from '../server/intelligence/alarms/engine';
import { notifyDispatcher } from '../server/intelligence/notify/dispatcher';
import { SimTerminal } from '../server/simulator/terminal';
import { LiveHub, type LiveMessage } from '../server/telematics/live/hub';
import { percentile, runAsScript, type BenchResult } from './lib';
import { benchGateway, sleep } from './telematics/setup';

const TERMINALS = Number(process.env.BENCH_TERMINALS || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
const CRASH_BIT = 1 << 29;
/** Vehicles per derivation transaction (the pipeline's default unless set; 1 = one at a time). */
const DERIVE_BATCH = process.env.BENCH_DERIVE_BATCH ? Number(process.env.BENCH_DERIVE_BATCH) : undefined;

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const g = await benchGateway(kind, TERMINALS);
  const db = g.database.db;
  const hub = new LiveHub();
  g.writer.on('stored', hub.publish);
  const engine = createAlarmEngine({ db });
  const notifier = notifyDispatcher({ db, sink: hub, timeZone: 'Asia/Shanghai' });
  engine.setListener(notifier.onRaised);
  // A console rule for collisions at the root, for the bench's subscriber (the root administrator).
  const admin = (await sql<{ id: number }>`SELECT m.id FROM member m JOIN organisation o ON o.id = m.org_id WHERE o.parent_id IS NULL ORDER BY m.id LIMIT 1`.execute(db)).rows[0].id;
  await sql`INSERT INTO notify (org_id, name, alarm_type, channel, enabled) SELECT id, 'bench crash', 'Crash', 'platform', true FROM organisation WHERE parent_id IS NULL ORDER BY id LIMIT 1`.execute(db);
  // BENCH_BITS_AFTER_PASS=1: the alarm word's alarms only from the derivation pass, as before.
  const unwatch = process.env.BENCH_BITS_AFTER_PASS === '1' ? () => {} : engine.watch([g.writer]);
  const derivation = await startDerivation({ db, timeZone: 'Asia/Shanghai', sources: [g.writer, g.gateway.obdWriter], extraDerivers: [engine.deriver], batchSize: DERIVE_BATCH });
  const vehicles = await sql<{ id: number; terminal_no: string }>`SELECT v.id, t.terminal_no FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ANY (${g.phones}::text[])`.execute(db);
  const vehicleOf = new Map(vehicles.rows.map((r) => [r.terminal_no, r.id]));
  // Sent crash reports by vehicle and device time → when they were sent.
  const sent = new Map<string, number>();
  const latencies: number[] = [];
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
        if (a.type === 'Crash' && at !== undefined) {
          latencies.push(now - at);
          sent.delete(key);
        }
      }
    },
  });
  const terminals = g.phones.map((phone) => new SimTerminal({ host: '127.0.0.1', port: g.port, phone, ackTimeoutMs: 600_000 }));
  for (let i = 0; i < terminals.length; i += 50) await Promise.all(terminals.slice(i, i + 50).map((t) => t.connect()));
  const t0 = Date.now();
  let tick = 0;
  try {
    while (Date.now() - t0 < SECONDS * 1000) {
      const deviceTime = Math.floor(Date.now() / 1000) * 1000;
      terminals.forEach((t, i) => {
        const crash = (tick + i) % 10 === 0;
        if (crash) sent.set(`${vehicleOf.get(t.opts.phone)}|${deviceTime}`, performance.now());
        t.report({ time: deviceTime, latitude: 31.2 + i * 1e-4, longitude: 121.4, speed: 40, alarm: crash ? CRASH_BIT : 0, status: { accOn: true, fixed: true } });
      });
      tick++;
      await sleep(1000 - ((Date.now() - t0) % 1000));
    }
    await sleep(3000);
    const s = [...latencies].sort((a, b) => a - b);
    return {
      name: `alarm.latency.${kind}${DERIVE_BATCH ? `, ${DERIVE_BATCH} per transaction` : ''}${process.env.BENCH_BITS_AFTER_PASS === '1' ? ', bits after the pass' : ''}`,
      terminals: TERMINALS,
      reportsPerS: TERMINALS,
      seconds: SECONDS,
      alarms: s.length,
      undelivered: sent.size,
      p50Ms: +percentile(s, 50).toFixed(1),
      p95Ms: +percentile(s, 95).toFixed(1),
      p99Ms: +percentile(s, 99).toFixed(1),
      maxMs: +(s[s.length - 1] ?? NaN).toFixed(1),
      derivedWindows: derivation.pipeline.stats.windows,
    };
  } finally {
    for (const t of terminals) t.destroy();
    unwatch();
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
