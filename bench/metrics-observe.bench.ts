/**
 * The cost per acknowledgement of timing it for /metrics: prom-client's Histogram.observe against
 * the allocation-free FixedHistogram the gateway uses, side by side, alternating rounds in one
 * process, with the heap each leaves to collect.
 */

import os from 'node:os';
import { Histogram, Registry } from 'prom-client';
import { FixedHistogram } from '../server/platform/metrics/fixedHistogram';
import { runAsScript, type BenchResult } from './lib';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const N = 1_000_000;
const ROUNDS = 7;

function round(observe: (v: number) => void): { nsPerObserve: number } {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) observe((i % 1000) / 10_000);
  return { nsPerObserve: Number(process.hrtime.bigint() - t0) / N };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<BenchResult[]> {
  const registry = new Registry();
  const prom = new Histogram({ name: 'bench_prom', help: 'x', buckets: BOUNDS, registers: [registry] });
  const fixed = new FixedHistogram('bench_fixed', 'x', BOUNDS, registry);
  const promNs: number[] = [];
  const fixedNs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    promNs.push(round((v) => prom.observe(v)).nsPerObserve);
    fixedNs.push(round((v) => fixed.observe(v)).nsPerObserve);
  }
  const at = { date: new Date().toISOString(), load: os.loadavg().map((x) => +x.toFixed(2)) };
  const p = median(promNs);
  const f = median(fixedNs);
  return [
    { name: 'metrics-observe prom-client Histogram', medianNsPerObserve: +p.toFixed(1), rounds: ROUNDS, perRound: N, ...at },
    {
      name: 'metrics-observe FixedHistogram',
      medianNsPerObserve: +f.toFixed(1),
      ratioToPromClient: +(f / p).toFixed(3),
      rounds: ROUNDS,
      perRound: N,
      ...at,
    },
  ];
}

if (require.main === module) runAsScript(run);
