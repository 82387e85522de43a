import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { withVehicleBench } from './fixtures';
import type { BenchResult } from './lib';

/**
 * Export of all 100,000 vehicles as xlsx through a real listening server (keyset batches, exceljs
 * streaming writer, HTTP response), against an export of 1,000 of them (`status: repair`): time,
 * bytes, and the process's peak RSS and heap above the level before each export. The claim is flat
 * memory: the 100k export should peak about where the 1k export does. Run with
 * `node --expose-gc --import tsx bench/export.bench.ts` (tsx alone re-spawns node without the flag) so
 * each export starts from, and is judged after, a full collection.
 */
const ROWS = Number(process.env.BENCH_ROWS || 100_000);

interface Sample {
  rss: number;
  heap: number;
}
const mb = (b: number) => +(b / (1 << 20)).toFixed(1);

/** Downloads the export, counting bytes and never keeping them, while sampling memory every 10 ms. */
async function measure(port: number, token: string, criteria: Record<string, unknown>) {
  (global as { gc?: () => void }).gc?.();
  const before: Sample = { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
  const peak: Sample = { ...before };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heap = Math.max(peak.heap, m.heapUsed);
  }, 10);
  const t0 = process.hrtime.bigint();
  const bytes = await new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ criteria });
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/vehicle/vehicle/export',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearInterval(timer);
  // What stays after a collection: a leak per row would show here, garbage not yet collected would not.
  const gc = (global as { gc?: () => void }).gc;
  gc?.();
  const retained = gc ? mb(process.memoryUsage().heapUsed - before.heap) : null; // meaningless without a collection
  return {
    ms: Math.round(ms),
    bytes,
    rssBeforeMb: mb(before.rss),
    rssPeakAboveMb: mb(peak.rss - before.rss),
    heapPeakAboveMb: mb(peak.heap - before.heap),
    heapRetainedMb: retained,
  };
}

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult[]> {
  return withVehicleBench(kind, ROWS, async ({ app, token }) => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    await measure(port, token, { status: 'repair' }); // warm-up (code paths, JIT)
    const small = await measure(port, token, { status: 'repair' });
    const all = await measure(port, token, {});
    return [
      { name: `export.vehicle.1k.${kind}`, rows: ROWS / 100, ...small },
      { name: `export.vehicle.all.${kind}`, rows: ROWS, ...all },
    ];
  });
}

export async function run(): Promise<BenchResult[]> {
  return [...(await runOn('pglite')), ...(await runOn('postgres'))];
}

if (require.main === module) {
  run().then((rs) => rs.forEach((r) => console.log(JSON.stringify(r))));
}
