/** Small shared helpers for benchmarks: medians and percentiles, never wall-clock assertions. */
export interface BenchResult {
  name: string;
  [k: string]: unknown;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

export function summarise(samplesMs: number[]) {
  const s = [...samplesMs].sort((a, b) => a - b);
  return { n: s.length, p50Ms: +percentile(s, 50).toFixed(2), p95Ms: +percentile(s, 95).toFixed(2), maxMs: +s[s.length - 1].toFixed(2) };
}

/** `npx tsx bench/x.bench.ts`: run and print one JSON line per result. */
export function runAsScript(run: () => Promise<BenchResult | BenchResult[]>): void {
  run().then(
    (r) => (Array.isArray(r) ? r : [r]).forEach((x) => process.stdout.write(`${JSON.stringify(x)}\n`)),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
