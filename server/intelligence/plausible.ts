/**
 * What a vehicle can do, as every distance rule reads it (trips and their metrics, the ledger
 * through them, the replay's summary and levels): one bound, one place.
 * - A step between two fixes is a GNSS jump when it is longer than jitter and the speed it implies
 *   (distance over the time between them) is beyond MAX_KMH: far above what the demo and real
 *   terminals report (highway ~120 km/h), so a fast drive is never cut, yet a relocation of tens of
 *   kilometres in minutes (a multipath outlier, a terminal moved, a simulator's new run) is.
 *   Fixes at the same instant (two terminals of one vehicle) are never a jump: no speed is implied.
 * - Between fixes close in time (under SPEED_CHECK_MS) where either reports a speed, a step is also
 *   a jump when it is well beyond what those speeds could cover (MARGIN and SPEED_SLACK_KM): a
 *   multipath outlier a few hundred metres off while driving implies far less than MAX_KMH, yet
 *   lengthens the track by twice its error. Over longer gaps speeds at the ends say nothing of the
 *   way between (a terminal that sleeps), so only MAX_KMH applies.
 * - A fix within those bounds is still a detour when the way through it is longer than the speeds
 *   drove while the way past it is not (isDetour): the trips' distance then goes past it.
 * - An odometer's advance is sane when it never runs backwards and never outruns MAX_KMH over the
 *   time between its readings (half a kilometre of rounding allowed), and, over a track of at least
 *   FROZEN_MIN_KM, when it covers at least FROZEN_SHARE of it (a frozen odometer reads 0). A trip
 *   also drops its odometer when a reading stands still over FROZEN_MIN_KM of track (trips/metrics.ts).
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

/** Fixes less than this far apart are checked against the speeds they report. */
export const SPEED_CHECK_MS = 2 * 60_000;
/**
 * How far beyond the faster reported speed a step may go before it is a jump (traffic between two
 * reports), and the slack for two fixes' jitter. Tight on purpose: a real fix taken for a jump
 * costs nothing but the bend at it (the next step is measured from the fix before), while an
 * outlier let through lengthens the track by up to twice its error.
 */
export const MARGIN = 1.2;
export const SPEED_SLACK_KM = 0.05;
/** Below this reported speed (km/h) a fix says nothing of motion (jitter, a terminal without speed). */
const SPEED_KMH = 5;

/** A fix as the jump rule reads it. */
export interface JumpFix {
  time: number;
  /** km/h as reported (0: standing, or a terminal without speed). */
  speed: number;
}

/** Whether the step of `km` from fix `from` to fix `to` is a GNSS jump. */
export function isJump(from: JumpFix, to: JumpFix, km: number): boolean {
  const ms = to.time - from.time;
  if (ms <= 0 || km <= JITTER_KM) return false;
  const h = ms / 3_600_000;
  if (km / h > MAX_KMH) return true;
  const kmh = Math.max(from.speed, to.speed);
  return ms < SPEED_CHECK_MS && kmh >= SPEED_KMH && km > kmh * MARGIN * h + SPEED_SLACK_KM;
}

/**
 * How far the way through a fix may exceed what the reported speeds cover before the fix is a
 * detour (isDetour): GNSS speed is Doppler-measured and a road between fixes is at most as long as
 * the speed over the time, so the way through two true fixes never exceeds it by more than the
 * fixes' jitter.
 */
export const DETOUR_MARGIN = 1.02;
export const DETOUR_SLACK_KM = 0.04;

/**
 * Whether fix `b`, between the good fixes `a` and `c` (all reporting speed, `a` to `c` under
 * SPEED_CHECK_MS), is a detour: a multipath outlier too close to be a jump (isJump), yet one that
 * lengthens the track. The way a→b→c (`viaKm`) is longer than the faster speed of each step covers
 * in its time, while the way straight past it (`pastKm`, a→c) is not. A real bend fails the first
 * test (the road through it is what the speeds drove); an outlier's error lengthens both steps.
 * Decided once `c` is known, so the trips measure b's steps until then (metrics.ts).
 */
export function isDetour(a: JumpFix, b: JumpFix, c: JumpFix, viaKm: number, pastKm: number): boolean {
  if (c.time - a.time >= SPEED_CHECK_MS || b.time <= a.time || c.time <= b.time) return false;
  if (a.speed < SPEED_KMH || b.speed < SPEED_KMH || c.speed < SPEED_KMH) return false;
  const drivenKm = (Math.max(a.speed, b.speed) * (b.time - a.time) + Math.max(b.speed, c.speed) * (c.time - b.time)) / 3_600_000;
  const boundKm = drivenKm * DETOUR_MARGIN + DETOUR_SLACK_KM;
  return viaKm > boundKm && pastKm <= boundKm;
}

/** A track at least this long is long enough to tell a frozen odometer. */
export const FROZEN_MIN_KM = 1;
/** An odometer that covers less than this share of the filtered track is frozen or broken. */
export const FROZEN_SHARE = 0.8;

/**
 * Whether an odometer advance of `km` between readings at `fromTime` and `toTime` is one a vehicle
 * can make, and (given `gnssKm`, the filtered track over the same span) one it did make.
 */
export function odometerPlausible(fromTime: number, toTime: number, km: number, gnssKm?: number): boolean {
  if (km < 0 || km > MAX_KMH * ((toTime - fromTime) / 3_600_000) + 0.5) return false;
  return gnssKm === undefined || gnssKm < FROZEN_MIN_KM || km >= gnssKm * FROZEN_SHARE;
}
