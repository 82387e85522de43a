/**
 * The COPY text a gateway worker writes for every committed batch of positions (copyPositions.ts),
 * against the way it was written before (numbers through String). CPU µs
 * per row for a 2,000-row batch from 1,000 terminals whose values are what the decoder produces
 * (coordinates in millionths of a degree, speed, mileage and fuel in tenths). Alternating rounds,
 * medians; the texts are checked to be the same.
 *
 *   npx tsx bench/copy-text.bench.ts   (BENCH_ROUNDS, default 15)
 */

import { loadavg } from 'node:os';
import type { PositionRecord } from '../server/platform/telemetry';
import { isoFromEpochMs } from '../server/telematics/jt808/time';
import { copyText } from '../server/telematics/store/copyPositions';
import { runAsScript, type BenchResult } from './lib';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const ROWS = 2000;
const TERMINALS = 1000;
const REPS = 20;

const position = (i: number, k: number): PositionRecord => ({
  terminalId: i,
  vehicleId: 10 + i,
  deviceTime: Date.UTC(2026, 11, 1, 8) + k * 1000,
  latitude: (31_200_000 + i * 13 + k) / 1e6,
  longitude: (121_400_000 + k * 17) / 1e6,
  altitude: 12,
  speed: ((k * 7) % 1200) / 10,
  direction: (k * 7) % 360,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: (123_456 + k) / 10,
  fuelL: (402 - (k % 50)) / 10,
  blind: false,
  extras: k % 4 ? null : { signal: { rssi: 20 } },
  dtcs: null,
});

/** copyText as it was: numbers through String. */
function copyTextBefore(records: PositionRecord[]): string {
  const text = (v: string | null) =>
    v === null
      ? '\\N'
      : /[\\\t\n\r]/.test(v)
        ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
        : v;
  const num = (v: number | null) => (v === null || !Number.isFinite(v) ? '\\N' : String(v));
  const bool = (v: boolean) => (v ? 't' : 'f');
  let out = '';
  for (const r of records)
    out +=
      `${r.terminalId}\t${isoFromEpochMs(r.deviceTime)}\t${num(r.vehicleId)}\t${num(r.latitude)}\t${num(r.longitude)}\t` +
      `${num(r.altitude)}\t${num(r.speed)}\t${num(r.direction)}\t${r.alarm}\t${r.status}\t${bool(r.acc)}\t${bool(r.fixed)}\t` +
      `${num(r.mileageKm)}\t${num(r.fuelL)}\t${bool(r.blind)}\t${text(r.extras ? JSON.stringify(r.extras) : null)}\t` +
      `${text(r.dtcs ? r.dtcs.join(',') : null)}\n`;
  return out;
}

/** CPU µs per row of `f` over REPS batches, a different one each time. */
function cpuPerRow(f: (batch: number) => unknown): number {
  const n = REPS;
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) f(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n / ROWS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run(): Promise<BenchResult> {
  // A batch per repetition, every value new: V8 caches the text of numbers it wrote lately, and
  // one batch written over and over would measure that cache, not a gateway's fresh positions.
  const records = Array.from({ length: REPS }, (_, b) => Array.from({ length: ROWS }, (_, k) => position(k % TERMINALS, b * ROWS + k)));
  const s = { before: [] as number[], after: [] as number[] };
  // Warm-up, so both paths are optimised before they are measured.
  for (let i = 0; i < 3; i++) {
    copyTextBefore(records[i]);
    copyText(records[i]);
  }
  for (let r = 0; r < ROUNDS; r++) {
    s.before.push(cpuPerRow((i) => copyTextBefore(records[i])));
    s.after.push(cpuPerRow((i) => copyText(records[i])));
  }
  const m = (xs: number[]) => +median(xs).toFixed(2);
  return {
    name: 'ingest.copyText',
    rows: ROWS,
    rounds: ROUNDS,
    cpuUsPerRow: { before: m(s.before), after: m(s.after), ratio: +(median(s.after) / median(s.before)).toFixed(2) },
    sameText: records.every((r) => copyText(r) === copyTextBefore(r)),
    loadAverage: loadavg().map((x) => +x.toFixed(2)),
  };
}

if (require.main === module) runAsScript(run);
