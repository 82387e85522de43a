/**
 * What a vehicle can do, as every distance rule reads it (trips and their metrics, the ledger
 * through them, the replay's summary and levels): one bound, one place.
 * - A step between two fixes is a GNSS jump when it is longer than jitter and the speed it implies
 *   (distance over the time between them) is beyond MAX_KMH: far above what the demo and real
 *   terminals report (highway ~120 km/h), so a fast drive is never cut, yet a relocation of tens of
 *   kilometres in minutes (a multipath outlier, a terminal moved, a simulator's new run) is.
 *   Fixes at the same instant (two terminals of one vehicle) are never a jump: no speed is implied.
 * - An odometer's advance is sane when it never runs backwards and never outruns MAX_KMH over the
 *   time between its readings (half a kilometre of rounding allowed).
 */

/** km/h no vehicle reaches. */
export const MAX_KMH = 250;
/** A step this short is jitter whatever the time between the fixes. */
export const JITTER_KM = 0.1;

/**
 * A jump from a good position at least this old is a relocation, not an outlier (trips/segment.ts):
 * multipath and cold-start outliers come back within seconds, while a terminal moved, or reporting
 * again after silence from elsewhere, stays where it now is.
 */
export const RELOCATION_MS = 2 * 60_000;

/** Whether the step of `km` between fixes at `fromTime` and `toTime` (epoch ms) is a GNSS jump. */
export function isJump(fromTime: number, toTime: number, km: number): boolean {
  const h = (toTime - fromTime) / 3_600_000;
  return h > 0 && km > JITTER_KM && km / h > MAX_KMH;
}

/** Whether an odometer advance of `km` between readings at `fromTime` and `toTime` is one a vehicle can make. */
export function odometerPlausible(fromTime: number, toTime: number, km: number): boolean {
  return km >= 0 && km <= MAX_KMH * ((toTime - fromTime) / 3_600_000) + 0.5;
}
