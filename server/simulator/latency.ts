/**
 * Acknowledgement latencies, one-millisecond buckets up to a minute (the rest in the last one):
 * fixed memory however many reports, and histograms of several processes add up exactly.
 */

const MAX_MS = 60_000;

export class LatencyHistogram {
  private readonly buckets = new Uint32Array(MAX_MS + 1);
  count = 0;

  record(ms: number): void {
    this.buckets[Math.min(MAX_MS, Math.max(0, Math.round(ms)))]++;
    this.count++;
  }

  /** Non-empty buckets as [ms, count] pairs (small enough to cross IPC). */
  toPairs(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i <= MAX_MS; i++) if (this.buckets[i]) out.push([i, this.buckets[i]]);
    return out;
  }

  add(pairs: Array<[number, number]>): void {
    for (const [ms, n] of pairs) {
      this.buckets[ms] += n;
      this.count += n;
    }
  }

  /** The p-th percentile, ms (NaN when empty; 60000 means "a minute or more"). */
  percentile(p: number): number {
    if (!this.count) return NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i <= MAX_MS; i++) {
      seen += this.buckets[i];
      if (seen >= rank) return i;
    }
    return MAX_MS;
  }
}
