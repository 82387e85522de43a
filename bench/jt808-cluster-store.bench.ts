/**
 * Positions offered and stored per second through the real multi-worker server (GATEWAY_WORKERS,
 * PostgreSQL, a nats-server of the bench's own; each committed batch is published on JetStream as
 * in production): BENCH_TERMINALS terminals, registered beforehand, in BENCH_CLIENT_PROCESSES child
 * processes, each reporting BENCH_RATE positions a second; every report is acknowledged only after
 * its commit.
 *
 * Figures over the window after a 5 s ramp-up: acknowledged (= stored) per second; acknowledgement
 * latency p50/p95/p99 (from the report's sending to its acknowledgement); CPU ms per stored
 * position of the gateway workers, the primary, the PostgreSQL backends, nats-server and the
 * clients, from /proc/<pid>/stat, and the positions per second one core of each would carry. At
 * the end, rows per terminal against what each terminal had acknowledged: lost (acknowledged but
 * not stored) and extra (stored, never acknowledged); the primary key (terminal, device time)
 * makes a stored duplicate impossible, so resends are reported beside.
 *
 *   BENCH_WORKERS=2 BENCH_TERMINALS=5000 BENCH_RATE=10 BENCH_SECONDS=60 npx tsx bench/jt808-cluster-store.bench.ts
 *   (BENCH_CLIENT_PROCESSES 2; BENCH_DRAIN_S 120: offered above capacity, the backlog needs longer)
 */

import { sql } from 'kysely';
import { LatencyHistogram } from '../server/simulator/latency';
import { runAsScript, type BenchResult } from './lib';
import { spawnClients, sum } from './telematics/clients';
import { benchCluster, ClusterCpu, loadAverage } from './telematics/cluster';
import { median, sleep } from './telematics/setup';

const WORKERS = Number(process.env.BENCH_WORKERS || 2);
const TERMINALS = Number(process.env.BENCH_TERMINALS || 2000);
const RATE = Number(process.env.BENCH_RATE || 10);
const SECONDS = Number(process.env.BENCH_SECONDS || 60);
const PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES || 2);
const RAMP_S = 5;
/** How long the terminals may take, once they stop reporting, to have the backlog acknowledged. */
const DRAIN_S = Number(process.env.BENCH_DRAIN_S || 120);

export async function run(): Promise<BenchResult> {
  const c = await benchCluster({ workers: WORKERS, terminals: TERMINALS });
  const clients = spawnClients(
    c.jt808Port,
    c.phones,
    Math.ceil(TERMINALS / PROCESSES),
    1,
    {
      intervalMs: 1000 / RATE,
      timeStepMs: 1000, // distinct device times however fast they report
      // Past the run: a store that falls behind is measured, not buried under resends.
      ackTimeoutMs: 600_000,
      connectConcurrency: 100,
    },
    c.authCodes,
  );
  try {
    await Promise.all(clients.map((x) => x.started()));
    const acked = async () =>
      sum(
        (await Promise.all(clients.map((x) => x.stats()))).map((s) => s.stats),
        'acked',
      );
    await sleep(RAMP_S * 1000);
    await Promise.all(clients.map((x) => x.mark()));
    const cpu = await ClusterCpu.start(c, () => clients.map((x) => x.pid));
    const first = await acked();
    const t0 = Date.now();
    const perSecond: number[] = [];
    let [last, tPrev] = [first, t0];
    while (Date.now() - t0 < SECONDS * 1000) {
      await sleep(1000);
      const [now, at] = [await acked(), Date.now()];
      perSecond.push(((now - last) * 1000) / (at - tPrev));
      if (process.env.BENCH_VERBOSE) process.stderr.write(`${((at - t0) / 1000).toFixed(1)}s acked/s ${Math.round(perSecond.at(-1)!)}\n`);
      [last, tPrev] = [now, at];
    }
    const windowPositions = last - first;
    const windowS = (tPrev - t0) / 1000;
    const cpuMs = await cpu.spent(windowPositions);
    const load = loadAverage();
    const final = await Promise.all(clients.map((x) => x.finish(DRAIN_S * 1000)));
    const latency = new LatencyHistogram();
    for (const f of final) latency.add(f.latency);
    // Rows per terminal against what each terminal had acknowledged.
    const ackedByPhone = new Map<string, number>();
    let k = 0;
    for (const f of final) for (const n of f.ackedPerTerminal) ackedByPhone.set(c.phones[k++], n);
    const rows = await sql<{ terminal_no: string; n: number; distinct_times: number }>`
      SELECT t.terminal_no, count(*)::int AS n, count(DISTINCT p.device_time)::int AS distinct_times
      FROM position p JOIN terminal t ON t.id = p.terminal_id GROUP BY t.terminal_no`.execute(c.database.db);
    const storedByPhone = new Map(rows.rows.map((r) => [r.terminal_no, r]));
    let lost = 0;
    let extra = 0;
    let duplicated = 0;
    for (const [phone, n] of ackedByPhone) {
      const s = storedByPhone.get(phone);
      lost += Math.max(0, n - (s?.n ?? 0));
      extra += Math.max(0, (s?.n ?? 0) - n);
      duplicated += s ? s.n - s.distinct_times : 0;
    }
    const stats = final.map((f) => f.stats);
    const perCore = (ms: number) => (ms > 0 ? Math.round(1000 / ms) : null);
    return {
      name: 'jt808.cluster.store',
      workers: WORKERS,
      terminals: TERMINALS,
      clientProcesses: clients.length,
      offeredPerS: TERMINALS * RATE,
      windowS: +windowS.toFixed(1),
      storedPerS: Math.round(windowPositions / windowS),
      medianStoredPerS: Math.round(median(perSecond)),
      ackLatencyMs: { p50: latency.percentile(50), p95: latency.percentile(95), p99: latency.percentile(99), n: latency.count },
      sent: sum(stats, 'positions'),
      acked: sum(stats, 'acked'),
      stored: rows.rows.reduce((a, r) => a + r.n, 0),
      lost,
      extraStoredUnacked: extra,
      duplicated,
      unackedAtEnd: sum(stats, 'unacked'),
      reconnects: sum(stats, 'connects') - TERMINALS,
      cpuMsPerPosition: cpuMs,
      // One core's worth of each kind of process divided by the CPU each stored position took there.
      perCorePerS: {
        workers: perCore(cpuMs.workers),
        gatewayWithPrimary: perCore(cpuMs.workers + cpuMs.primary),
        postgres: perCore(cpuMs.postgres),
        serverSide: perCore(cpuMs.workers + cpuMs.primary + cpuMs.postgres + cpuMs.nats),
      },
      loadAverage: load,
    };
  } finally {
    if (process.env.BENCH_VERBOSE) process.stderr.write(c.server.output().slice(-5000));
    for (const x of clients) x.kill();
    await c.close();
  }
}

if (require.main === module) runAsScript(run);
