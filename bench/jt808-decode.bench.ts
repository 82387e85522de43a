/**
 * Decode time of one 0x0200 frame with 12 standard additional items (DESIGN.md budget: <= 1 us).
 * Run: npx tsx bench/jt808-decode.bench.ts  -> one JSON line.
 */

import { decodeFrame, encodeMessage, MsgId } from '../server/telematics/jt808/codec';
import { runAsScript } from './lib';

export interface BenchResult {
  name: string;
  medianNs?: number;
  [k: string]: unknown;
}

/** A realistic report: moving vehicle, ACC on, GPS+BeiDou fix, 12 items, 119-byte frame. */
export function sampleLocationFrame(): Buffer {
  return encodeMessage(
    { phone: '13912345678', serial: 0x1234 },
    {
      msgId: MsgId.Location,
      body: {
        alarm: 0,
        status: { accOn: true, fixed: true, gps: true, beidou: true },
        latitude: 22.543096,
        longitude: 114.057865,
        altitude: 38,
        speed: 62.4,
        direction: 135,
        time: '2024-05-20T02:30:15.000Z',
        extras: {
          mileageKm: 123456.7,
          fuelL: 45.5,
          recorderSpeedKmh: 61.9,
          alarmEventId: 7,
          overspeed: { areaType: 1, areaId: 42 },
          areaAlarm: { areaType: 2, areaId: 7, direction: 1 },
          routeTime: { routeId: 9, seconds: 600, result: 1 },
          signals: { lowBeam: true, brake: true },
          io: 0,
          analog: { ad0: 1200, ad1: 3300 },
          signalStrength: 27,
          satellites: 14,
        },
      },
    },
  );
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
