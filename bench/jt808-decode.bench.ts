/**
 * Decode time of one 0x0200 frame with 12 standard additional items (DESIGN.md budget: <= 1 us).
 * Run: npx tsx bench/jt808-decode.bench.ts  -> one JSON line.
 */

import { decodeFrame, escapeFrame, MsgId } from '../server/telematics/jt808/codec';
import { locationPacket, TWELVE_ITEMS } from '../tests/server/telematics/jt808/locationCorpus';
import { runAsScript } from './lib';

export interface BenchResult {
  name: string;
  medianNs?: number;
  [k: string]: unknown;
}

/** A realistic report: moving vehicle, ACC on, GPS+BeiDou fix, 12 items, 107-byte frame (the decode corpus's first). */
export function sampleLocationFrame(): Buffer {
  return escapeFrame(locationPacket(TWELVE_ITEMS));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export async function run(): Promise<BenchResult> {
  const frame = sampleLocationFrame();
  const check = decodeFrame(frame);
  if (check.msgId !== MsgId.Location || check.opaque !== undefined) throw new Error('bench frame does not decode as 0x0200');
  const items = Object.keys(check.body.extras).length;

  const perRound = 200_000;
  const rounds = 9;
  let sink = 0;
  // Warm-up so the JIT has optimised the decode path before measuring.
  for (let i = 0; i < 300_000; i++) sink += decodeFrame(frame).serial;
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) sink += decodeFrame(frame).serial;
    const ns = Number(process.hrtime.bigint() - t0);
    samples.push(ns / perRound);
    await new Promise((resolve) => setImmediate(resolve)); // let GC and timers breathe between rounds
  }
  if (sink === 0) throw new Error('unreachable');
  return {
    name: 'jt808.decode.0x0200',
    medianNs: Math.round(median(samples) * 10) / 10,
    rounds,
    perRound,
    frameBytes: frame.length,
    items,
    minNs: Math.round(Math.min(...samples) * 10) / 10,
    maxNs: Math.round(Math.max(...samples) * 10) / 10,
  };
}

if (require.main === module) runAsScript(run);
