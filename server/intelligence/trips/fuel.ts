/**
 * Fuel from the level the terminal reports (additional item 0x02, litres), or the OBD fuel level
 * (%) times the tank capacity when positions carry none. Levels slosh, so every level used here is
 * a median of a few samples, and a step counts only beyond a threshold.
 * - refuel: the level rises while parked (a stationary run: ACC off, or not moving);
 * - suspected drain: it falls while parked by more than idling with the ACC on would burn. A drain
 *   also carries when it was first evident: the standing report at which the run so far first read
 *   as one. Its own time (half-way down) moves while the level goes on falling; that one does not,
 *   so the drain's alarm is keyed by it (alarms/deriver.ts).
 */

import { firstAfter, firstAtOrAfter, type DeriveObdRecord, type DerivePosition } from '../deriver';

export interface FuelSample {
  time: number;
  level: number;
  /** Read at a standstill (no slosh); OBD levels, whose motion is unknown, are not. */
  standing: boolean;
}

export interface FuelEvent {
  kind: 'refuel' | 'drain';
  time: number;
  amountL: number;
  levelBeforeL: number;
  levelAfterL: number;
  latitude: number;
  longitude: number;
  /** A drain's: the time of the standing report at which the run up to it first read as a drain; null for a refuel. */
  detectedAt: number | null;
}

/** Smallest step that is an event: 5 L, or 5 % of the tank when that is more. */
export const eventThresholdL = (tankCapacityL: number | null) => Math.max(5, (tankCapacityL ?? 0) * 0.05);
/** Idling burns about this much; a parked fall within it (ACC on) is no drain. */
export const IDLE_BURN_L_PER_H = 3;
/** Samples a smoothed level is the median of. */
export const SMOOTH = 3;

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

/** The OBD records' fuel level (%) × the tank, as level samples in time order (for terminals whose positions carry no 0x02). */
export function obdFuelSamples(obd: readonly DeriveObdRecord[], tankCapacityL: number | null): FuelSample[] {
  if (!tankCapacityL) return [];
  const out: FuelSample[] = [];
  for (const r of obd) {
    const pct = r.readings?.fuelLevel;
    if (typeof pct === 'number' && pct >= 0 && pct <= 100) out.push({ time: r.time, level: (pct * tankCapacityL) / 100, standing: false });
  }
  return out;
}

/** Below this speed (km/h) a level is read at a standstill (segment.ts's MIN_MOVING_KMH; not imported, as segment.ts reads this module's neighbours). */
const STANDING_KMH = 5;

/** A position's own level sample (0x02), when it has a sane one. */
export const ownFuelSample = (p: DerivePosition): FuelSample | null =>
  p.fuelL !== null && p.fuelL >= 0 ? { time: p.time, level: p.fuelL, standing: p.speed < STANDING_KMH } : null;

/**
 * The smoothed level at the start (first samples at or after `from`) or the end (last at or before
 * `to`) of a span. `samples` are in time order, so the span is found by halving, not by a filter:
 * this runs for every trip of a window on every pass.
 */
export function levelAt(samples: readonly FuelSample[], from: number, to: number, side: 'start' | 'end'): number | null {
  const lo = firstAtOrAfter(samples, from);
  const hi = firstAfter(samples, to);
  if (hi <= lo) return null;
  const pick = side === 'start' ? samples.slice(lo, Math.min(hi, lo + SMOOTH)) : samples.slice(Math.max(lo, hi - SMOOTH), hi);
  return median(pick.map((s) => s.level));
}

/** Standing samples in a row a trip's level is read from at most (a long stop's middle adds nothing). */
export const STANDING_ROW = 24;

/**
 * The level read at a standstill next to a trip: from the standing samples in a row after it
 * (`side` 'after': from the first at or after `at`) or before it ('before': back from the last at
 * or before `at`), at most STANDING_ROW of them. Without a refuel or drain among them it is their
 * median, so a trip's end and the next trip's start read the same stop alike and the day's fuel
 * telescopes; with one, the median of the ones nearest the trip, as many as the run's level before
 * or after its step is read from (runStep: half of them, at most SMOOTH), so the event and the
 * trips telescope too and the refuel is never read into a trip. Null when the sample next to the
 * trip is not standing. Levels read while driving slosh by litres, and a trip burns a few.
 */
export function standingLevel(
  samples: readonly FuelSample[],
  at: number,
  side: 'before' | 'after',
  events: readonly FuelEvent[],
): number | null {
  const row: FuelSample[] = [];
  if (side === 'after')
    for (let i = firstAtOrAfter(samples, at); i < samples.length && row.length < STANDING_ROW && samples[i].standing; i++)
      row.push(samples[i]);
  else for (let i = firstAfter(samples, at) - 1; i >= 0 && row.length < STANDING_ROW && samples[i].standing; i--) row.push(samples[i]);
  if (!row.length) return null;
  const lo = Math.min(row[0].time, row[row.length - 1].time);
  const hi = Math.max(row[0].time, row[row.length - 1].time);
  const stepped = events.some((e) => e.time >= lo && e.time <= hi);
  const nearest = stepped ? row.slice(0, Math.max(1, Math.min(SMOOTH, row.length >> 1))) : row;
  return median(nearest.map((x) => x.level));
}

/**
 * A stationary run (two or more consecutive standing positions, GNSS jumps left out of the
 * standing but not of the run's span) as the trips walk grows it: the indexes of its positions
 * that carry a level, and how long the ACC was on across it.
 */
export interface StandingRun {
  first: number;
  last: number;
  /** Indexes in [first, last] of positions with a level (jumps included). */
  fuel: number[];
  /** Σ over [first, last) of the time to the next position while the ACC is on. */
  accOnMs: number;
  /** The time of the standing report at which the run up to it first read as a drain (null: not yet). */
  drainSeen: number | null;
}

/** A run opened at the standing position `i`. */
export const openRun = (positions: readonly DerivePosition[], i: number): StandingRun => ({
  first: i,
  last: i,
  fuel: positions[i].fuelL !== null ? [i] : [],
  accOnMs: 0,
  drainSeen: null,
});

/** Grows a run to the standing position `i` (the positions in between were jumps), noting when it first reads as a drain. */
export function growRun(run: StandingRun, positions: readonly DerivePosition[], i: number, tankCapacityL: number | null): void {
  for (let j = run.last; j < i; j++) {
    if (positions[j].acc) run.accOnMs += positions[j + 1].time - positions[j].time;
    if (positions[j + 1].fuelL !== null) run.fuel.push(j + 1);
  }
  run.last = i;
  if (run.drainSeen === null && runStep(positions, run, tankCapacityL)?.kind === 'drain') run.drainSeen = positions[i].time;
}

/**
 * The level's step across a run: between the medians of its first and last few samples, and
 * whether it is a refuel or a drain (beyond the threshold; for a drain, beyond what idling burned).
 * Reads only those samples, so it is cheap enough for every standing report (growRun).
 */
function runStep(
  positions: readonly DerivePosition[],
  run: StandingRun,
  tankCapacityL: number | null,
): { kind: FuelEvent['kind']; before: number; delta: number } | null {
  const n = run.fuel.length;
  if (run.last <= run.first || n < 2) return null;
  const k = Math.min(SMOOTH, n >> 1);
  const level = (x: number) => positions[run.fuel[x]].fuelL!;
  const before = median(Array.from({ length: k }, (_, x) => level(x)));
  const delta = median(Array.from({ length: k }, (_, x) => level(n - k + x))) - before;
  const threshold = eventThresholdL(tankCapacityL);
  const allowance = (run.accOnMs / 3_600_000) * IDLE_BURN_L_PER_H;
  const kind = delta >= threshold ? 'refuel' : -delta >= threshold + allowance ? 'drain' : null;
  return kind && { kind, before, delta };
}

/** The refuel or suspected drain of a run, if any (runStep), timed where the level has gone half of the way. */
export function runEvent(positions: readonly DerivePosition[], run: StandingRun, tankCapacityL: number | null): FuelEvent | null {
  const step = runStep(positions, run, tankCapacityL);
  if (!step) return null;
  const { kind, before, delta } = step;
  const after = before + delta;
  // When: the sample where the level has gone half of the way.
  const half = before + delta / 2;
  const j = run.fuel.find((x) => (delta > 0 ? positions[x].fuelL! >= half : positions[x].fuelL! <= half)) ?? run.fuel[0];
  const at = positions[j];
  // A drain read as one at the run's last report at the latest (growRun asks at every standing report).
  const detectedAt = kind === 'drain' ? (run.drainSeen ?? positions[run.last].time) : null;
  return {
    kind,
    time: at.time,
    amountL: round1(Math.abs(delta)),
    levelBeforeL: round1(before),
    levelAfterL: round1(after),
    latitude: at.latitude,
    longitude: at.longitude,
    detectedAt,
  };
}
