/**
 * The rules trips and stops are cut by (tripWalk.ts walks them). Motion is decided per position
 * from itself and the good position before it only, so a window that starts at a trip's first
 * position (with the position before it as `before`) segments exactly as a run over the whole
 * history would:
 * - moving: ACC on and speed ≥ MIN_MOVING_KMH; or displaced more than JITTER_KM from the position
 *   before with the ACC off and speed (towing), or with the ACC on and neither position reporting
 *   speed (a terminal without speed); a standing position right after a fast one is not
 *   displacement. With the ACC off and no speed, displacement alone is never motion: a position
 *   drifting while parked, or a multipath outlier hundreds of metres off, is one position, not
 *   evidence (a vehicle carried away reports GNSS speed, which multipath hardly disturbs);
 * - a GNSS jump (implied speed above MAX_KMH from the last good position, beyond JITTER_KM, or
 *   far beyond the speeds the fixes report: plausible.ts) is left out of motion and distance, and
 *   the last good position stays the anchor (an outlier is skipped, the step over it measured from
 *   before it). An outlier close enough to pass is taken back when the next position is a jump from
 *   it but not from the good position before it, both driving (isShownOutlier): else the true
 *   positions after it would all be jumps until a relocation;
 * - so is parked drift: a position with the ACC off and no speed, more than JITTER_KM (and at most
 *   DRIFT_KM) from a good position that stood too. The anchor stays where the vehicle parked, so a
 *   stop's wandering fixes neither move it nor lengthen the next trip's first step;
 * - a jump from a good position RELOCATION_MS old or more is a relocation (a terminal moved or
 *   reporting again from elsewhere, a simulator's new run): what was walked is closed as it stands
 *   (its trip or stop, its stationary run) and the walk starts afresh at the first position after
 *   the last good one, as at a window's first position with nothing before it, walking again the
 *   positions it had skipped. The jump is never distance, never motion, never a stop's place.
 *   Without this the anchor stayed behind for good and every later position was a jump until time
 *   alone made the distance plausible, then one step carried it all (a moving hour read as 0 km,
 *   then a trip of the whole jump at 200 km/h);
 * - a trip ends where a stationary run of at least the organisation's stop minutes begins; shorter
 *   runs stay inside the trip (traffic, idling); a data gap without displacement counts as
 *   stationary from the position before it, and so does a gap of at least the stop minutes after a
 *   standing position, even when the next position moves (it begins the next trip).
 */

import type { DerivePosition } from '../deriver';
import { isJump, JITTER_KM, SPEED_CHECK_MS } from '../plausible';

export { isJump, JITTER_KM, MAX_KMH, RELOCATION_MS } from '../plausible';
export const MIN_MOVING_KMH = 5;
/** Farther than this from where it stood is no drift (a vehicle moved without ACC or speed: the walk takes it as it is). */
export const DRIFT_KM = 1;

const driving = (p: DerivePosition) => p.acc && p.speed >= MIN_MOVING_KMH;

/**
 * Whether the good position `b`, driven to from the good position `a`, was an outlier that `c`
 * (`acKm` from `a`) shows up, `c` being a jump from `b`: it is none from `a`, within SPEED_CHECK_MS.
 */
export const isShownOutlier = (a: DerivePosition, b: DerivePosition, c: DerivePosition, acKm: number): boolean =>
  driving(a) && driving(b) && c.time - a.time < SPEED_CHECK_MS && !isJump(a, c, acKm);

/** Whether `p` is parked drift from the good position `good` it is `km` from (see the header). */
export const isDrift = (good: DerivePosition, p: DerivePosition, km: number): boolean =>
  !p.acc && p.speed < MIN_MOVING_KMH && good.speed < MIN_MOVING_KMH && km > JITTER_KM && km <= DRIFT_KM;

export interface TripSegment {
  kind: 'trip';
  /** Index of the first position of the trip (the first moving one) in the window's positions. */
  first: number;
  /** Index of the last position that belongs to the trip (where the stop begins, or the window's last). */
  last: number;
  begin: number;
  end: number;
  /** Still open: no stop long enough has ended it within the data. */
  open: boolean;
}

export interface StopSegment {
  kind: 'stop';
  first: number;
  last: number;
  begin: number;
  /** The first moving position's time (it may lie just after the window), else the last position's. */
  end: number;
  open: boolean;
}

export type Segment = TripSegment | StopSegment;

/** `km`: the position's distance from `prev`, the good position before it (NaN: none). */
export function isMoving(p: DerivePosition, prev: DerivePosition | null, km: number): boolean {
  const fast = p.speed >= MIN_MOVING_KMH;
  if (p.acc && fast) return true;
  if (!prev || (!fast && prev.speed >= MIN_MOVING_KMH)) return false;
  if (!fast && !p.acc) return false;
  return km > JITTER_KM;
}
