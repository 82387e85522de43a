/**
 * Positions stored per second: N simulated terminals (in two child processes, real TCP) report to
 * the gateway, which batches them into PGlite or PostgreSQL; every report is acknowledged only
 * after its commit. Figures: median stored/s over one-second windows, and stored vs sent at the end.
 * DESIGN.md budget: >= 20,000 positions/s into PostgreSQL with nothing lost. One gateway, no
 * NATS, no derivation: jt808-cluster-store.bench.ts measures the whole multi-worker server.
 *
 *   npx tsx bench/jt808-store.bench.ts   (BENCH_TERMINALS, BENCH_RATE per terminal per s, BENCH_SECONDS, BENCH_BACKENDS)
 */

import { runAsScript, type BenchResult } from './lib';
import { spawnClients, sum } from './telematics/clients';
import { benchGateway, median, sleep } from './telematics/setup';

const TERMINALS = Number(process.env.BENCH_TERMINALS || 2000);
const RATE = Number(process.env.BENCH_RATE || 10);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
const PROCESSES = 2;

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const g = await benchGateway(kind, TERMINALS);
  const clients = spawnClients(g.port, g.phones, Math.ceil(TERMINALS / PROCESSES), 1, {
    intervalMs: 1000 / RATE,
    timeStepMs: 1000, // distinct device times however fast they report
    // Past the run: a store that falls behind is measured, not buried under resends.
    ackTimeoutMs: 600_000,
    connectConcurrency: 50,
  });
  try {
    await Promise.all(clients.map((c) => c.started()));
    // Rates over real elapsed time: a busy event loop stretches every sleep.
    const perSecond: number[] = [];
    let last = g.writer.stats.inserted;
    const t0 = Date.now();
    let tPrev = t0;
    const window0 = { inserted: 0, at: 0, cpu: process.cpuUsage() };
    while (Date.now() - t0 < SECONDS * 1000) {
      await sleep(1000);
      const now = g.writer.stats.inserted;
      const at = Date.now();
      if (at - t0 >= 3000) {
        // Past the ramp-up.
        perSecond.push(((now - last) * 1000) / (at - tPrev));
        if (!window0.at) Object.assign(window0, { inserted: last, at: tPrev, cpu: process.cpuUsage() });
      }
      if (process.env.BENCH_VERBOSE)
        process.stderr.write(
          `${kind} ${((at - t0) / 1000).toFixed(1)}s stored/s ${Math.round(((now - last) * 1000) / (at - tPrev))} queued ${g.writer.queuedRecords}\n`,
        );
      last = now;
      tPrev = at;
    }
    const steadyPerS = ((last - window0.inserted) * 1000) / (tPrev - window0.at);
    // The gateway's own CPU (this process: decode, batch, COPY, acknowledge), apart from the clients'.
    const cpu = process.cpuUsage(window0.cpu);
    const gatewayCpuUsPerPosition = (cpu.user + cpu.system) / Math.max(1, last - window0.inserted);
    const windowMs = Date.now() - t0;
    const final = await Promise.all(clients.map((c) => c.stop(120_000)));
    await g.writer.flush();
    const sent = sum(final, 'positions');
    const acked = sum(final, 'acked');
    const stored = await g.storedCount();
    return {
      name: `jt808.store.${kind}`,
      terminals: TERMINALS,
      offeredPerS: TERMINALS * RATE,
      medianStoredPerS: Math.round(median(perSecond)),
      steadyStoredPerS: Math.round(steadyPerS),
      windowS: +(windowMs / 1000).toFixed(1),
      sent,
      acked,
      stored,
      lost: sent - stored,
      duplicatesAbsorbed: g.writer.stats.duplicates,
      batches: g.writer.stats.batches,
      storeFailures: g.gateway.stats.storeFailures,
      storagePath: kind === 'postgres' && !process.env.BENCH_UNNEST ? 'copy' : 'unnest',
      gatewayCpuUsPerPosition: +gatewayCpuUsPerPosition.toFixed(1),
      // One core's worth of gateway CPU divided by the CPU each stored position took.
      impliedPerCorePerS: Math.round(1e6 / gatewayCpuUsPerPosition),
    };
  } finally {
    for (const c of clients) c.kill();
    await g.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) out.push(await runOn(kind));
  return out;
}

if (require.main === module) runAsScript(run);
