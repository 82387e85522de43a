/** The acknowledgement-latency histogram the cluster benches merge across client processes. */
import { LatencyHistogram } from '../../../server/simulator/latency';

describe('LatencyHistogram', () => {
  it('gives nearest-rank percentiles in whole milliseconds, a minute and more in the last bucket', () => {
    const h = new LatencyHistogram();
    expect(h.percentile(50)).toBeNaN();
    for (let ms = 1; ms <= 100; ms++) h.record(ms);
    h.record(90_000);
    expect(h.count).toBe(101);
    expect([h.percentile(50), h.percentile(95), h.percentile(99), h.percentile(100)]).toEqual([51, 96, 100, 60_000]);
  });

  it('adds up exactly when the histograms of several processes are merged', () => {
    const [a, b, all] = [new LatencyHistogram(), new LatencyHistogram(), new LatencyHistogram()];
    for (let i = 0; i < 1000; i++) {
      const ms = (i * 37) % 500;
      (i % 3 ? a : b).record(ms);
      all.record(ms);
    }
    const merged = new LatencyHistogram();
    merged.add(a.toPairs());
    merged.add(b.toPairs());
    expect(merged.count).toBe(1000);
    for (const p of [1, 50, 90, 99]) expect(merged.percentile(p)).toBe(all.percentile(p));
  });
});
