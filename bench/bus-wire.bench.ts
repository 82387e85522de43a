/**
 * The bus's wire form of a committed batch (server/platform/storedWire.ts) against plain JSON: CPU
 * µs per row to encode (what the gateway worker pays once per batch it publishes on NATS) and to
 * decode (what each process reading the batch pays), and bytes per row, for a 2,000-row batch from
 * 1,000 terminals shaped like the cluster bench's. Alternating rounds, medians.
 *
 *   npx tsx bench/bus-wire.bench.ts   (BENCH_ROUNDS, default 15)
 */

import type { PositionRecord, StoredPositions, TerminalIdentity } from '../server/platform/telemetry';
import { packStored, unpackStored } from '../server/platform/storedWire';
import { runAsScript, type BenchResult } from './lib';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const ROWS = 2000;
const TERMINALS = 1000;

const identity = (i: number): TerminalIdentity => ({
  terminalId: i,
  terminalNo: `0138${String(i).padStart(8, '0')}`,
  sim: `0138${String(i).padStart(8, '0')}`,
  orgId: 4,
  orgPath: '/1/4/',
  vehicleId: 10 + i,
  licence: `沪B${String(i).padStart(5, '0')}`,
  vehicleOrgPath: '/1/4/',
});
const position = (i: number, k: number): PositionRecord => ({
  terminalId: i,
  vehicleId: 10 + i,
  deviceTime: Date.UTC(2026, 11, 1, 8) + k * 1000,
  latitude: 31.2 + i * 1.3e-5,
  longitude: 121.4 + k * 1.7e-5,
  altitude: 12,
  speed: 42.5,
  direction: (k * 7) % 360,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: 12345.6 + k / 10,
  fuelL: 40.2,
  blind: false,
  extras: null,
  dtcs: null,
});

/** CPU µs per row of `f`, over enough repetitions to fill ~200 ms. */
function cpuPerRow(f: () => unknown): number {
  const n = 20;
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n / ROWS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run(): Promise<BenchResult> {
  const sources = Array.from({ length: TERMINALS }, (_, i) => identity(i));
  const batch: StoredPositions = {
    inserted: Array.from({ length: ROWS }, (_, k) => ({ source: sources[k % TERMINALS], record: position(k % TERMINALS, k) })),
  };
  const plain = JSON.stringify(batch);
  const packed = JSON.stringify(packStored(batch));
  const s = { plainEncode: [] as number[], plainDecode: [] as number[], packedEncode: [] as number[], packedDecode: [] as number[] };
  // Warm-up, so every path is optimised before it is measured.
  for (let i = 0; i < 3; i++) {
    JSON.stringify(batch);
    JSON.parse(plain);
    JSON.stringify(packStored(batch));
    unpackStored(JSON.parse(packed));
  }
  for (let r = 0; r < ROUNDS; r++) {
    s.plainEncode.push(cpuPerRow(() => Buffer.from(JSON.stringify(batch))));
    s.packedEncode.push(cpuPerRow(() => Buffer.from(JSON.stringify(packStored(batch)))));
    s.plainDecode.push(cpuPerRow(() => JSON.parse(plain)));
    s.packedDecode.push(cpuPerRow(() => unpackStored(JSON.parse(packed))));
  }
  const m = (xs: number[]) => +median(xs).toFixed(2);
  return {
    name: 'bus.wire.storedBatch',
    rows: ROWS,
    terminals: TERMINALS,
    rounds: ROUNDS,
    bytesPerRow: { plain: Math.round(plain.length / ROWS), packed: Math.round(Buffer.byteLength(packed) / ROWS) },
    cpuUsPerRow: {
      plainEncode: m(s.plainEncode),
      packedEncode: m(s.packedEncode),
      plainDecode: m(s.plainDecode),
      packedDecode: m(s.packedDecode),
    },
    sameAfterRoundTrip: JSON.stringify(unpackStored(JSON.parse(packed))) === plain,
    loadAverage: (await import('node:os')).loadavg().map((x) => +x.toFixed(2)),
  };
}

if (require.main === module) runAsScript(run);
