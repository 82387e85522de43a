/**
 * Trail's anchor is where the ignition went off (detectors/policyRules.ts, trail): a window that
 * begins with the ignition off must reach back to the last report with it on, or the anchor would
 * be wherever the window happens to begin. A tow fast enough to be a trip makes the trips' own
 * widening start there, inside the parked run; without this, a live pass, a later rebuild and a
 * derivation at once each anchored differently, and found (and announced) the towing at different
 * reports.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { TimeRange } from '../deriver';
import { windowBounds } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

/** Per range (in order), the time of the vehicle's last report with the ignition on before `from`; null when none or unbounded. */
async function ignitionOnBefore(db: Kysely<DB>, items: ReadonlyArray<{ vehicleId: number; from: number }>): Promise<Array<number | null>> {
  const asked = items.flatMap((x, i) => (Number.isFinite(x.from) ? [i] : []));
  const out: Array<number | null> = items.map(() => null);
  if (!asked.length) return out;
  // Backwards along the (vehicle, time) index: it stops at the first report with the ignition on.
  const r = await sql<{ ord: number; t: Date | null }>`
    SELECT w.ord, p.t FROM unnest(${asked.map((i) => items[i].vehicleId)}::int[], ${asked.map((i) => iso(items[i].from))}::timestamptz[]) WITH ORDINALITY AS w(vehicle_id, lo, ord)
    LEFT JOIN LATERAL (
      SELECT device_time AS t FROM position WHERE vehicle_id = w.vehicle_id AND device_time < w.lo AND acc IS TRUE ORDER BY device_time DESC LIMIT 1
    ) p ON true`.execute(db);
  for (const row of r.rows) if (row.t) out[asked[Number(row.ord) - 1]] = new Date(row.t).getTime();
  return out;
}

/** Rounds of reaching back at most: each one only moves a window back, and a second is already rare. */
const MAX_ROUNDS = 4;

/**
 * windowBounds (back to the begin of any alarm still open that is not carried, on to the end of any that lasts), and
 * for the ranges `anchored` marks, back also to the last report with the ignition on: again after
 * each move, since an alarm open there may begin inside an earlier run with it off.
 */
export async function alarmWindowBounds(
  db: Kysely<DB>,
  items: ReadonlyArray<{ vehicleId: number; from: number; to: number }>,
  anchored: readonly boolean[],
): Promise<TimeRange[]> {
  if (!anchored.some(Boolean)) return windowBounds(db, items, { carry: true });
  const marked = items.flatMap((_, i) => (anchored[i] ? [i] : []));
  let bounds: TimeRange[] = items.map((x) => ({ from: x.from, to: x.to }));
  for (let round = 0; ; round++) {
    const on = await ignitionOnBefore(
      db,
      marked.map((i) => ({ vehicleId: items[i].vehicleId, from: bounds[i].from })),
    );
    const reached = bounds.map((b) => ({ ...b }));
    marked.forEach((i, k) => {
      if (on[k] !== null) reached[i].from = Math.min(reached[i].from, on[k]!);
    });
    const next = await windowBounds(
      db,
      items.map((x, i) => ({ vehicleId: x.vehicleId, ...reached[i] })),
      { carry: true },
    );
    const settled = next.every((b, i) => !anchored[i] || b.from === reached[i].from);
    bounds = next;
    if (settled || round + 1 >= MAX_ROUNDS) return bounds;
  }
}
