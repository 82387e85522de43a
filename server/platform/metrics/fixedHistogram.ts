/**
 * A histogram without labels whose observe() allocates nothing: prom-client's Histogram makes a
 * closure and a label object on every observation, too much for the gateway's per-acknowledgement
 * path. Counts sit in a typed array; the registry reads them when scraped, in its own format.
 */

import type { Metric, Registry } from 'prom-client';

export class FixedHistogram {
  readonly type = 'histogram';
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    this.counts = new Float64Array(bounds.length);
    // The registry only calls name, help, type, get() and reset() (registry.js); its types admit only its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    // Per bucket (not cumulative) here; get() accumulates. Values above the last bound only reach +Inf.
    for (let i = 0; i < this.bounds.length; i++)
      if (value <= this.bounds[i]) {
        this.counts[i]++;
        return;
      }
  }

  /** Observations so far (tests, benches). */
  get observed(): number {
    return this.count;
  }

  get() {
    let cumulative = 0;
    const values: Array<{ metricName: string; labels: Record<string, number | string>; value: number }> = this.bounds.map((le, i) => {
      cumulative += this.counts[i];
      return { metricName: `${this.name}_bucket`, labels: { le }, value: cumulative };
    });
    values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, value: this.count });
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: 'sum',
      values: [
        ...values,
        { metricName: `${this.name}_sum`, labels: {}, value: this.sum },
        { metricName: `${this.name}_count`, labels: {}, value: this.count },
      ],
    };
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}
