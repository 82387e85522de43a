/** Runs of consecutive reports for which a condition holds: the building block of the duration rules. */

import type { DerivePosition } from '../../deriver';

export interface Run {
  /** Reports of the run, in order (at least one). */
  points: DerivePosition[];
  /** The first report after the run (the condition cleared there); null when the data ends inside it. */
  clearedBy: DerivePosition | null;
}

/**
 * Splits `positions` into maximal runs where `holds(p, first)` is true; `first` is the run's first
 * report (an anchor for "still at the same place").
 */
export function conditionRuns(
  positions: readonly DerivePosition[],
  holds: (p: DerivePosition, first: DerivePosition | null) => boolean,
): Run[] {
  const out: Run[] = [];
  let cur: DerivePosition[] = [];
  for (const p of positions) {
    if (holds(p, cur[0] ?? null)) {
      cur.push(p);
      continue;
    }
    if (cur.length) out.push({ points: cur, clearedBy: p });
    cur = holds(p, null) ? [p] : [];
  }
  if (cur.length) out.push({ points: cur, clearedBy: null });
  return out;
}

/** How long the condition has held, from its first report to its last. */
export const heldMs = (r: Run) => r.points[r.points.length - 1].time - r.points[0].time;
