/**
 * Live passes over a stream of reports, as the pipeline hands them to a deriver that carries its
 * work from pass to pass: each pass stores a few more reports, its marks lag behind the newest, some
 * find a derived report stored again changed (the dirty range then begins there), and every fourth
 * is not continued unless its held window served (and then a derived report may have changed
 * without a mark here, as another process could have done).
 */

import fc from 'fast-check';
import type { DerivePosition } from '../../../server/intelligence/deriver';

export interface LivePass {
  chunk: number;
  lag: number;
  held: boolean;
  edit: number | null;
}

export const livePassArb = (maxChunk: number): fc.Arbitrary<LivePass> =>
  fc.record({
    chunk: fc.integer({ min: 1, max: maxChunk }),
    lag: fc.integer({ min: 0, max: 3 }),
    held: fc.boolean(),
    edit: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  });

export interface PassView {
  /** The reports stored so far. */
  positions: DerivePosition[];
  dirtyFrom: number;
  marked: number;
  continues: boolean;
  /** A report already derived was stored again changed. */
  edited: boolean;
  /** Whether a carry could be gone on from: a later pass, continued, nothing derived changed. */
  eligible: boolean;
}

/** The passes over `reports` (not changed: a copy is edited), `change` making a report stored again different. */
export function* livePasses(
  reports: readonly DerivePosition[],
  passes: readonly LivePass[],
  change: (p: DerivePosition) => DerivePosition,
): Generator<PassView> {
  const all = [...reports];
  let n = 0;
  /** Reports the last pass's marks surely covered (before its marked second): the next dirty range begins after them. */
  let settled = 0;
  for (const [k, pass] of passes.entries()) {
    if (n >= all.length) return;
    n = Math.min(all.length, n + pass.chunk);
    let dirtyFrom = all[settled].time;
    const edited = pass.edit !== null && settled > 0;
    if (edited) {
      const j = pass.edit! % settled;
      all[j] = change(all[j]);
      dirtyFrom = Math.min(dirtyFrom, all[j].time);
    }
    const continues = k % 4 !== 3 || pass.held;
    if (!continues && settled > 0) all[settled - 1] = change(all[settled - 1]);
    const positions = all.slice(0, n);
    const marked = positions[Math.max(0, n - 1 - pass.lag)].time;
    yield { positions, dirtyFrom, marked, continues, edited, eligible: k > 0 && continues && !edited };
    settled = positions.filter((p) => p.time < marked).length;
  }
}
