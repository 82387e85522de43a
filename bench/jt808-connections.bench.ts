/**
 * Concurrent terminal connections held: terminals in child processes, spread over several
 * 127.0.0.x source addresses, register, authenticate, then stay connected; the gateway runs
 * here (on PostgreSQL by default, BENCH_BACKEND=pglite otherwise; the database only serves the
 * handshakes). Also memory per connection.
 * DESIGN.md budget: 100,000 connections on 2 cores. Bounded here by the open-files limit of one
 * process (`ulimit -n`), since the gateway is one process holding one descriptor per connection;
 * jt808-cluster-connections.bench.ts measures the multi-worker server past it.
 *
 *   npx tsx bench/jt808-connections.bench.ts   (BENCH_CONNECTIONS caps the target)
 */

import { execSync } from 'node:child_process';
import { runAsScript, type BenchResult } from './lib';
import { spawnClients, sum } from './telematics/clients';
import { benchGateway, sleep } from './telematics/setup';

/** Descriptors one process may open (soft limit; children inherit it). */
function openFilesLimit(): number {
  return Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim()) || 1024;
}

const PER_PROCESS = 9000;
const HOLD_MS = Number(process.env.BENCH_HOLD_MS || 15_000);

export async function run(): Promise<BenchResult> {
  const limit = openFilesLimit();
  // Keep headroom for the database, the listener and the runtime's own descriptors.
  const target = Math.min(Number(process.env.BENCH_CONNECTIONS || 100_000), limit - 1000);
  const g = await benchGateway((process.env.BENCH_BACKEND as 'pglite' | 'postgres') || 'postgres', target);
  const mem0 = process.memoryUsage();
  const t0 = Date.now();
  const clients = spawnClients(g.port, g.phones, PER_PROCESS, 2, {
    intervalMs: 3_600_000, // connected and silent: this measures holding, not reporting
    connectConcurrency: 100,
  });
  try {
    await Promise.all(clients.map((c) => c.started()));
    const connectMs = Date.now() - t0;
    await sleep(HOLD_MS);
    const held = g.gateway.registry.size;
    const mem1 = process.memoryUsage();
    const clientStats = await Promise.all(clients.map((c) => c.stats()));
    const online = sum(
      clientStats.map((c) => c.stats),
      'online',
    );
    return {
      name: 'jt808.connections',
      openFilesLimit: limit,
      target,
      authenticatedHeld: held,
      clientsOnline: online,
      sourceAddresses: clients.length * 2,
      connectAndAuthS: +(connectMs / 1000).toFixed(1),
      heldForS: HOLD_MS / 1000,
      serverRssPerConnKB: +((mem1.rss - mem0.rss) / held / 1024).toFixed(2),
      serverHeapPerConnKB: +((mem1.heapUsed - mem0.heapUsed) / held / 1024).toFixed(2),
      serverExternalPerConnKB: +((mem1.external + mem1.arrayBuffers - mem0.external - mem0.arrayBuffers) / held / 1024).toFixed(2),
      clientRssPerConnKB: +(clientStats.reduce((a, c) => a + c.rssBytes, 0) / online / 1024).toFixed(2),
    };
  } finally {
    for (const c of clients) c.kill();
    await g.close();
  }
}

if (require.main === module) runAsScript(run);
