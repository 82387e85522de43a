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

/** The trip's positions with the one it started from (the last stationary one), jumps left out. */
function tripPoints(positions: DerivePosition[], jumps: boolean[], trip: TripSegment, before: DerivePosition | null): DerivePosition[] {
  const out: DerivePosition[] = [];
  let from = trip.first - 1;
  while (from >= 0 && jumps[from]) from--;
  if (from >= 0) out.push(positions[from]);
  else if (before) out.push(before);
  for (let i = trip.first; i <= trip.last; i++) if (!jumps[i]) out.push(positions[i]);
  return out;
}

export function odometerKm(points: DerivePosition[]): number | null {
  const withOdo = points.filter((p) => p.mileageKm !== null);
  if (withOdo.length < 2) return null;
  const a = withOdo[0];
  const b = withOdo[withOdo.length - 1];
  const km = b.mileageKm! - a.mileageKm!;
  const h = (b.time - a.time) / 3_600_000;
  // Sane: it never runs backwards, and never faster than a vehicle can go.
  for (let i = 1; i < withOdo.length; i++) if (withOdo[i].mileageKm! < withOdo[i - 1].mileageKm!) return null;
  if (km < 0 || km > MAX_KMH * h + 0.5) return null;
  return km;
}

/** The track's length over the trip's points (tripPoints), its steps read from the window's. */
function gnssKm(positions: DerivePosition[], at: Steps, trip: TripSegment, start: DerivePosition): number {
  let km = 0;
  // The first point is the trip's own first position when nothing good lies before it: no step.
  let prev: DerivePosition | null = start === positions[trip.first] ? null : start;
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
  const points = tripPoints(positions, jumps, trip, before);
  const odo = odometerKm(points);
  const distance = odo ?? gnssKm(positions, at, trip, points[0]);
  let idleMs = 0;
  let maxSpeed = 0;
  for (let i = trip.first; i <= trip.last; i++) {
    if (jumps[i]) continue;
    const p = positions[i];
    if (p.speed > maxSpeed) maxSpeed = p.speed;
    if (i < trip.last && p.acc && p.speed < MIN_MOVING_KMH) idleMs += Math.min(positions[i + 1].time - p.time, stopMs);
  }
  const durationH = (trip.end - trip.begin) / 3_600_000;
  const startLevel = levelAt(fuel, points[0].time, trip.end, 'start');
  const endLevel = levelAt(fuel, points[0].time, trip.end, 'end');
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
    start: points[0],
    stop: positions[trip.last],
  };
}
