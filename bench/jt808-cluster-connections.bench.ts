/**
 * Terminals connected and authenticated at once through the real multi-worker server
 * (GATEWAY_WORKERS, PostgreSQL, a nats-server of the bench's own): the terminals are registered
 * beforehand, as a terminal registers once in its life, and each connects and authenticates with
 * its code (one query); a separate first phase measures registration itself (register, then
 * authenticate). Terminals run in child processes of at most BENCH_PER_PROCESS each, every one on
 * its own source address (127.0.0.x), since one process may open 20,000 descriptors and one source
 * address has ~28,000 ports towards the gateway. They send a heartbeat a minute, as terminals do.
 *
 * Reported: connect time, the fewest terminals online over the hold (client side) and the
 * terminals the server marks online at its end, reconnections during the hold, connections per
 * worker, memory per connection (workers' RSS, clients' RSS), CPU per handshake, load average.
 *
 *   BENCH_CONNECTIONS=100000 BENCH_WORKERS=6 BENCH_HOLD_S=60 npx tsx bench/jt808-cluster-connections.bench.ts
 *   (BENCH_PER_PROCESS 9000, BENCH_CONNECT_CONCURRENCY per client process 100, BENCH_REGISTRATIONS 2000)
 */

import { runAsScript, type BenchResult } from './lib';
import { ClientProcess, spawnClients, sum } from './telematics/clients';
import { benchCluster, ClusterCpu, kernelLimits, loadAverage, openFiles, rssBytes } from './telematics/cluster';
import { sleep } from './telematics/setup';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 100_000);
const WORKERS = Number(process.env.BENCH_WORKERS || 6);
const HOLD_S = Number(process.env.BENCH_HOLD_S || 60);
const PER_PROCESS = Number(process.env.BENCH_PER_PROCESS || 9000);
const CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY || 100);
const REGISTRATIONS = Number(process.env.BENCH_REGISTRATIONS ?? 2000);

const mb = (bytes: number) => +(bytes / 2 ** 20).toFixed(1);

export async function run(): Promise<BenchResult[]> {
  const c = await benchCluster({ workers: WORKERS, terminals: CONNECTIONS, unregistered: REGISTRATIONS });
  const out: BenchResult[] = [];
  const clients: ClientProcess[] = [];
  try {
    const limits = kernelLimits();
    if (REGISTRATIONS > 0) {
      // Registration (0x0100 then 0x0102) of terminals never seen: one process, one address.
      const phones = (
        await c.database.db
          .selectFrom('terminal')
          .select('terminal_no')
          .where('terminal_no', 'like', '8100%')
          .orderBy('terminal_no')
          .offset(CONNECTIONS)
          .execute()
      ).map((r) => r.terminal_no);
      let regPid = 0;
      const cpu = await ClusterCpu.start(c, () => [regPid]);
      const t0 = Date.now();
      const [reg] = spawnClients(c.jt808Port, phones, phones.length, 1, { intervalMs: 3_600_000, connectConcurrency: CONCURRENCY });
      regPid = reg.pid;
      const started = await reg.started();
      const ms = Date.now() - t0;
      out.push({
        name: 'jt808.cluster.registration',
        workers: WORKERS,
        terminals: phones.length,
        registeredAndAuthenticated: started.stats.online,
        seconds: +(ms / 1000).toFixed(1),
        perS: Math.round((started.stats.online * 1000) / ms),
        cpuMsPerHandshake: await cpu.spent(started.stats.online),
        loadAverage: loadAverage(),
      });
      await reg.stop(0);
    }

    const rss0 = new Map(c.workers().map((p) => [p, rssBytes(p)]));
    const fd0 = new Map(c.workers().map((p) => [p, openFiles(p)]));
    const cpu = await ClusterCpu.start(c, () => clients.map((x) => x.pid));
    const t0 = Date.now();
    clients.push(
      ...spawnClients(
        c.jt808Port,
        c.phones,
        PER_PROCESS,
        1,
        { intervalMs: 3_600_000, heartbeatMs: 60_000, connectConcurrency: CONCURRENCY },
        c.authCodes,
      ),
    );
    const started = await Promise.all(clients.map((x) => x.started()));
    const connectMs = Date.now() - t0;
    const connected = sum(
      started.map((s) => s.stats),
      'online',
    );
    const connectCpu = await cpu.spent(connected);
    const connects0 = sum(
      started.map((s) => s.stats),
      'connects',
    );
    // Held: the fewest online, sampled every 5 s through the hold.
    let fewest = connected;
    // What the processes spend while nobody connects (heartbeats, the server's periodic work):
    // subtracted from the connect window's figures by whoever reads them.
    const holdCpu = await ClusterCpu.start(c, () => clients.map((x) => x.pid));
    const holdStart = Date.now();
    let last = started.map((s) => ({ stats: s.stats, rssBytes: 0 }));
    while (Date.now() - holdStart < HOLD_S * 1000) {
      await sleep(Math.min(5000, HOLD_S * 1000 - (Date.now() - holdStart)));
      last = await Promise.all(clients.map((x) => x.stats()));
      fewest = Math.min(
        fewest,
        sum(
          last.map((s) => s.stats),
          'online',
        ),
      );
    }
    const heldS = (Date.now() - holdStart) / 1000;
    const holdCpuMsPerS = await holdCpu.spent(heldS);
    const online = await c.database.db
      .selectFrom('terminal_link')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('online', '=', true)
      .executeTakeFirstOrThrow();
    const workers = c.workers();
    const perWorker = workers.map((p) => openFiles(p) - (fd0.get(p) ?? 0));
    const workersRss = workers.reduce((a, p) => a + rssBytes(p), 0);
    const workersRssGrowth = workers.reduce((a, p) => a + rssBytes(p) - (rss0.get(p) ?? 0), 0);
    const clientsRss = last.reduce((a, s) => a + s.rssBytes, 0);
    const clientsOnline = sum(
      last.map((s) => s.stats),
      'online',
    );
    out.push({
      name: 'jt808.cluster.connections',
      workers: WORKERS,
      target: CONNECTIONS,
      clientProcesses: clients.length,
      sourceAddresses: clients.length,
      connected,
      connectS: +(connectMs / 1000).toFixed(1),
      connectPerS: Math.round((connected * 1000) / connectMs),
      cpuMsPerConnect: connectCpu,
      heldForS: +heldS.toFixed(1),
      cpuMsPerSecondWhileHolding: holdCpuMsPerS,
      fewestOnlineDuringHold: fewest,
      serverMarkedOnline: Number(online.n),
      reconnectsDuringHold:
        sum(
          last.map((s) => s.stats),
          'connects',
        ) - connects0,
      connectionsPerWorker: perWorker,
      workersRssBeforeMB: mb([...rss0.values()].reduce((a, b) => a + b, 0)),
      workersRssMB: mb(workersRss),
      // Growth over the workers' RSS before any terminal (a collection of start-up garbage meanwhile can hide it at small counts).
      serverRssPerConnKB: +(workersRssGrowth / Math.max(1, clientsOnline) / 1024).toFixed(2),
      clientsRssMB: mb(clientsRss),
      clientRssPerConnKB: +(clientsRss / Math.max(1, clientsOnline) / 1024).toFixed(2),
      ...limits,
      loadAverage: loadAverage(),
    });
    return out;
  } finally {
    for (const x of clients) x.kill();
    await c.close();
  }
}

if (require.main === module) runAsScript(run);
