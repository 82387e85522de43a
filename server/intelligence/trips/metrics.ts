/**
 * What a trip measures: distance (the odometer 0x01 when it is present and sane, else the GNSS
 * track without jitter and jumps), idle time, speeds, and fuel used (the smoothed level fall plus
 * the refuels and minus the drains inside the trip).
 */

import type { DerivePosition } from '../deriver';
import { levelAt, round1, type FuelEvent, type FuelSample } from './fuel';
import { MAX_KMH, MIN_MOVING_KMH as MOVING_KMH, type Steps, type TripSegment } from './segment';

/** Read once: under tsx an imported binding is a getter call on every use, here per position (segment.ts). */
const MIN_MOVING_KMH = MOVING_KMH;

export interface TripMetrics {
  distanceKm: number;
  distanceSource: 'odometer' | 'gnss';
  idleS: number;
  maxSpeed: number;
  avgSpeed: number;
  fuelL: number | null;
  start: DerivePosition;
  stop: DerivePosition;
}

/** A step shorter than this while standing is jitter, not distance. */
const JITTER_STEP_KM = 0.03;

/** The position the trip started from: the last good one before its first (the window's `before` when none). */
function startOf(positions: DerivePosition[], jumps: ArrayLike<boolean>, trip: TripSegment, before: DerivePosition | null): DerivePosition | null {
  let from = trip.first - 1;
  while (from >= 0 && jumps[from]) from--;
  return from >= 0 ? positions[from] : before;
}

/**
 * The odometer's distance over the trip's points (its start, then its good positions), when two or
 * more carry it and it is sane: it never runs backwards, and never faster than a vehicle can go.
 * A walk over the window, not a copy of the trip: this runs on every pass over the open trip.
 */
function odometerKm(positions: DerivePosition[], jumps: ArrayLike<boolean>, trip: TripSegment, start: DerivePosition | null): number | null {
  let a: DerivePosition | null = null;
  let b: DerivePosition | null = null;
  let n = 0;
  const take = (p: DerivePosition): boolean => {
    if (p.mileageKm === null) return true;
    if (b !== null && p.mileageKm < b.mileageKm!) return false;
    a ??= p;
    b = p;
    n++;
    return true;
  };
  if (start && !take(start)) return null;
  for (let i = trip.first; i <= trip.last; i++) if (!jumps[i] && !take(positions[i])) return null;
  if (n < 2) return null;
  const km = b!.mileageKm! - a!.mileageKm!;
  const h = (b!.time - a!.time) / 3_600_000;
  if (km < 0 || km > MAX_KMH * h + 0.5) return null;
  return km;
}

/** The track's length over the trip's points, its steps read from the window's. */
function gnssKm(positions: DerivePosition[], at: Steps, trip: TripSegment, start: DerivePosition | null): number {
  let km = 0;
  let prev = start;
  for (let i = trip.first; i <= trip.last; i++) {
    if (at.jumps[i]) continue;
    const p = positions[i];
    if (prev) {
      const step = at.km[i];
      if (!(step < JITTER_STEP_KM && p.speed < MIN_MOVING_KMH && prev.speed < MIN_MOVING_KMH)) km += step;
    }
    prev = p;
  }
  return km;
}

export function tripMetrics(
  positions: DerivePosition[],
  at: Steps,
  trip: TripSegment,
  before: DerivePosition | null,
  fuel: FuelSample[],
  events: FuelEvent[],
  stopMs: number,
): TripMetrics {
  const { jumps } = at;
  const start = startOf(positions, jumps, trip, before);
  const odo = odometerKm(positions, jumps, trip, start);
  const distance = odo ?? gnssKm(positions, at, trip, start);
  // The first point: where it started from, or its own first position when nothing good lies before.
  const first = start ?? positions[trip.first];
  let idleMs = 0;
  let maxSpeed = 0;
  for (let i = trip.first; i <= trip.last; i++) {
    if (jumps[i]) continue;
    const p = positions[i];
    if (p.speed > maxSpeed) maxSpeed = p.speed;
    if (i < trip.last && p.acc && p.speed < MIN_MOVING_KMH) idleMs += Math.min(positions[i + 1].time - p.time, stopMs);
  }
  const durationH = (trip.end - trip.begin) / 3_600_000;
  const startLevel = levelAt(fuel, first.time, trip.end, 'start');
  const endLevel = levelAt(fuel, first.time, trip.end, 'end');
  let fuelL: number | null = null;
  if (startLevel !== null && endLevel !== null) {
    const inside = events.filter((e) => e.time >= trip.begin && e.time <= trip.end);
    const refuel = inside.filter((e) => e.kind === 'refuel').reduce((s, e) => s + e.amountL, 0);
    const drain = inside.filter((e) => e.kind === 'drain').reduce((s, e) => s + e.amountL, 0);
    fuelL = round1(Math.max(0, startLevel - endLevel + refuel - drain));
  }
  return {
    distanceKm: Math.round(distance * 1000) / 1000,
    distanceSource: odo !== null ? 'odometer' : 'gnss',
    idleS: Math.round(idleMs / 1000),
    maxSpeed,
    avgSpeed: durationH > 0 ? Math.round((distance / durationH) * 10) / 10 : 0,
    fuelL,
    start: first,
    stop: positions[trip.last],
  };
}
