/**
 * Photos against positions: UPLOADERS terminals each upload a photo of PHOTO_BYTES at once (0x0801
 * in packages of 1000 bytes, reassembled, written to the media folder and its row) while they and
 * OTHERS terminals keep reporting positions. Figures, side by side in one run: the positions'
 * acknowledgement p50/p99 over a window without uploads, then over the window of the uploads (from
 * the signal to the last upload answered), and the uploads' own times. Terminals run in two child
 * processes (uploaders, others) so their work does not share the gateway's event loop.
 * Issue 33's bound: 100 terminals uploading a 200 KB photo each at once do not delay position
 * acknowledgements beyond their p99 budget.
 *
 *   npx tsx bench/media-upload.bench.ts
 *     (BENCH_UPLOADERS 100, BENCH_OTHERS 400, BENCH_PHOTO_BYTES 200000, BENCH_RATE per terminal per s 1,
 *      BENCH_SECONDS of the window without uploads 10, BENCH_BACKENDS pglite,postgres)
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LatencyHistogram } from '../server/simulator/latency';
import { percentile, runAsScript, type BenchResult } from './lib';
import { spawnClients } from './telematics/clients';
import { benchGateway, sleep } from './telematics/setup';

const UPLOADERS = Number(process.env.BENCH_UPLOADERS || 100);
const OTHERS = Number(process.env.BENCH_OTHERS || 400);
const PHOTO_BYTES = Number(process.env.BENCH_PHOTO_BYTES || 200_000);
const RATE = Number(process.env.BENCH_RATE || 1);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
/** Past the connections and the first reports. */
const RAMP_MS = 3000;

function figures(pairs: Array<Array<[number, number]>>) {
  const h = new LatencyHistogram();
  for (const p of pairs) h.add(p);
  return { acks: h.count, p50Ms: h.percentile(50), p99Ms: h.percentile(99) };
}

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), 'bench-media-'));
  const g = await benchGateway(kind, UPLOADERS + OTHERS, { mediaDir });
  const plan = { intervalMs: 1000 / RATE, timeStepMs: 1000, ackTimeoutMs: 600_000, connectConcurrency: 50 };
  const [uploaders] = spawnClients(g.port, g.phones.slice(0, UPLOADERS), UPLOADERS, 1, plan);
  const others = OTHERS ? spawnClients(g.port, g.phones.slice(UPLOADERS), OTHERS, 1, plan) : [];
  const all = [uploaders, ...others];
  try {
    await Promise.all(all.map((c) => c.started()));
    await sleep(RAMP_MS);
    await Promise.all(all.map((c) => c.mark()));
    // Without uploads.
    await sleep(SECONDS * 1000);
    const quiet = await Promise.all(all.map((c) => c.take()));
    // During the uploads: from the signal to the last upload answered complete.
    const t0 = Date.now();
    const uploads = await uploaders.upload(PHOTO_BYTES);
    const windowMs = Date.now() - t0;
    const busy = await Promise.all(all.map((c) => c.take()));
    await Promise.all(all.map((c) => c.stop(60_000)));
    const times = [...uploads.ms].sort((a, b) => a - b);
    return {
      name: `jt808.mediaUpload.${kind}`,
      uploaders: UPLOADERS,
      others: OTHERS,
      photoBytes: PHOTO_BYTES,
      positionsPerS: (UPLOADERS + OTHERS) * RATE,
      // Uploaders' positions queue behind their own photo on the same connection; the others' show the gateway's share.
      withoutUploads: { windowS: SECONDS, all: figures(quiet), uploaders: figures(quiet.slice(0, 1)), others: figures(quiet.slice(1)) },
      duringUploads: {
        windowS: +(windowMs / 1000).toFixed(1),
        all: figures(busy),
        uploaders: figures(busy.slice(0, 1)),
        others: figures(busy.slice(1)),
      },
      uploadsDone: uploads.ms.length,
      uploadsFailed: uploads.failed,
      uploadP50Ms: percentile(times, 50),
      uploadMaxMs: times[times.length - 1] ?? NaN,
      mediaStored: await storedMedia(g),
    };
  } finally {
    for (const c of all) c.kill();
    await g.close();
    await rm(mediaDir, { recursive: true, force: true });
  }
}

async function storedMedia(g: Awaited<ReturnType<typeof benchGateway>>): Promise<number> {
  const r = await g.database.db
    .selectFrom('media')
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) out.push(await runOn(kind));
  return out;
}

if (require.main === module) runAsScript(run);
