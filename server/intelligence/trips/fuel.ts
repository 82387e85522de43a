/**
 * Fuel from the level the terminal reports (additional item 0x02, litres), or the OBD fuel level
 * (%) times the tank capacity when positions carry none. Levels slosh, so every level used here is
 * a median of a few samples, and a step counts only beyond a threshold.
 * - refuel: the level rises while parked (a stationary run: ACC off, or not moving);
 * - suspected drain: it falls while parked by more than idling with the ACC on would burn.
 */

import type { DeriveObdRecord, DerivePosition } from '../deriver';

export interface FuelSample {
  time: number;
  level: number;
}

export interface FuelEvent {
  kind: 'refuel' | 'drain';
  time: number;
  amountL: number;
  levelBeforeL: number;
  levelAfterL: number;
  latitude: number;
  longitude: number;
}

/** Smallest step that is an event: 5 L, or 5 % of the tank when that is more. */
export const eventThresholdL = (tankCapacityL: number | null) => Math.max(5, (tankCapacityL ?? 0) * 0.05);
/** Idling burns about this much; a parked fall within it (ACC on) is no drain. */
export const IDLE_BURN_L_PER_H = 3;
/** Samples a smoothed level is the median of. */
const SMOOTH = 3;

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const round1 = (x: number) => Math.round(x * 10) / 10;

/** Level samples in time order: the positions' 0x02 (`before`'s first), else the OBD records' level × tank. */
export function fuelSamples(positions: DerivePosition[], obd: DeriveObdRecord[], tankCapacityL: number | null, before: DerivePosition | null = null): FuelSample[] {
  const own: FuelSample[] = [];
  // A walk, not a copy of the window with `before` in front: this runs on every pass over the open trip.
  const take = (p: DerivePosition) => {
    if (p.fuelL !== null && p.fuelL >= 0) own.push({ time: p.time, level: p.fuelL });
  };
  if (before) take(before);
  for (const p of positions) take(p);
  if (own.length || !tankCapacityL) return own;
  return obd
    .map((r) => ({ time: r.time, pct: typeof r.readings?.fuelLevel === 'number' ? (r.readings.fuelLevel as number) : null }))
    .filter((r): r is { time: number; pct: number } => r.pct !== null && r.pct >= 0 && r.pct <= 100)
    .map((r) => ({ time: r.time, level: (r.pct * tankCapacityL) / 100 }));
}

/** The smoothed level at the start (first samples at or after `from`) or the end (last at or before `to`) of a span. */
export function levelAt(samples: FuelSample[], from: number, to: number, side: 'start' | 'end'): number | null {
  const inside = samples.filter((s) => s.time >= from && s.time <= to);
  if (!inside.length) return null;
  const pick = side === 'start' ? inside.slice(0, SMOOTH) : inside.slice(-SMOOTH);
  return median(pick.map((s) => s.level));
}

/**
 * Refuels and suspected drains over the stationary runs of the window: `runs` are [first, last]
 * index pairs of positions where the vehicle stood (see stationaryRuns).
 */
export function fuelEvents(positions: DerivePosition[], runs: Array<[number, number]>, tankCapacityL: number | null): FuelEvent[] {
  const threshold = eventThresholdL(tankCapacityL);
  const out: FuelEvent[] = [];
  for (const [first, last] of runs) {
    const run = positions.slice(first, last + 1).filter((p) => p.fuelL !== null);
    if (run.length < 2) continue;
    const k = Math.min(SMOOTH, run.length >> 1);
    const before = median(run.slice(0, k).map((p) => p.fuelL!));
    const after = median(run.slice(-k).map((p) => p.fuelL!));
    const delta = after - before;
    let accOnMs = 0;
    for (let i = first; i < last; i++) if (positions[i].acc) accOnMs += positions[i + 1].time - positions[i].time;
    const allowance = (accOnMs / 3_600_000) * IDLE_BURN_L_PER_H;
    const kind = delta >= threshold ? 'refuel' : -delta >= threshold + allowance ? 'drain' : null;
    if (!kind) continue;
    // When: the sample where the level has gone half of the way.
    const half = before + delta / 2;
    const at = run.find((p) => (delta > 0 ? p.fuelL! >= half : p.fuelL! <= half)) ?? run[0];
    out.push({ kind, time: at.time, amountL: round1(Math.abs(delta)), levelBeforeL: round1(before), levelAfterL: round1(after), latitude: at.latitude, longitude: at.longitude });
  }
  return out;
}
