import { firstAtOrAfter, timeSlice } from '../../../server/intelligence/deriver';

describe('slicing a window by time', () => {
  it('gives what a filter over the whole list gives, with repeated times and unbounded ends', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      // Ordered times with repeats (two terminals of one vehicle can report the same second).
      const items: Array<{ time: number; k: number }> = [];
      let t = 1000;
      for (let k = Math.floor(random() * 40); k > 0; k--) {
        t += random() < 0.3 ? 0 : Math.floor(random() * 5) * 1000;
        items.push({ time: t, k });
      }
      const bounds = [-Infinity, Infinity, 0, 1000, t, t + 1, ...items.map((i) => i.time), ...items.map((i) => i.time + 500)];
      const from = bounds[Math.floor(random() * bounds.length)];
      const to = bounds[Math.floor(random() * bounds.length)];
      expect(timeSlice(items, from, to)).toEqual(items.filter((i) => i.time >= from && i.time < to));
      expect(firstAtOrAfter(items, from)).toBe(
        items.findIndex((i) => i.time >= from) === -1 ? items.length : items.findIndex((i) => i.time >= from),
      );
    }
  });
});
