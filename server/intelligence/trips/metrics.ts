/**
 * What a trip measures: distance (the odometer 0x01 when it is present and sane, else the GNSS
 * track without jitter and jumps), idle time, speeds, and fuel used (the smoothed level fall plus
 * the refuels and minus the drains inside the trip). The levels are read at a standstill where the
 * trip has one at its ends (the stop it started from, the stop it ended in: standingLevel),
 * else as the smoothed samples nearest its ends; the odometer is sane when it also covers the
 * track (plausible.ts: a frozen one reads 0 km).
 *
 * The sums are kept as the trips walk (tripWalk.ts) meets the trip's good positions one by one, so
 * a live pass adds only the positions stored since the last and never walks an open trip again.
 */

import type { DerivePosition } from '../deriver';
import { levelAt, round1, standingLevel, type FuelEvent, type FuelSample } from './fuel';
import { distanceKm as geoDistanceKm } from '../geo';
import { FROZEN_MIN_KM, isDetour as detour, odometerPlausible } from '../plausible';
import { MIN_MOVING_KMH as MOVING_KMH } from './segment';

/** Read once: under tsx an imported binding is a getter call on every use, here per position (segment.ts). */
const MIN_MOVING_KMH = MOVING_KMH;
const distanceKm = geoDistanceKm;
const isDetour = detour;

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

/**
 * A trip's sums through its good position `last`. The trip's points are its start (the last good
 * position before its first, when there is one) and its good positions.
 */
export interface TripSums {
  /** The good position before the trip's first (null: none, in the window or before it). */
  start: DerivePosition | null;
  /** Index of the last good position summed (-1: only the start). */
  last: number;
  /** The last point summed (the start, then `positions[last]`). */
  prev: DerivePosition | null;
  /**
   * The point the track came to `prev` from and the length of that step, counted as distance
   * (null: none, or not while moving): `prev` is a detour (plausible.ts) when the next point shows
   * the way through it too long, and the step is then taken back.
   */
  beforePrev: DerivePosition | null;
  prevKm: number;
  maxSpeed: number;
  gnssKm: number;
  /** Σ over the good positions before `last` with the ACC on and standing: the time to the next position, at most the stop minutes. */
  idleMs: number;
  /** The odometer's first and last readings over the points, how many, and whether it ever ran backwards. */
  odoFirst: DerivePosition | null;
  odoLast: DerivePosition | null;
  odoCount: number;
  odoBackwards: boolean;
  /**
   * The track over steps to a position reporting speed (what an odometer must cover: an outlier
   * while idling is no distance it missed), its length when the odometer last advanced, and
   * whether the odometer then stood still over FROZEN_MIN_KM of it (frozen).
   */
  movingKm: number;
  odoAdvancedAtKm: number;
  odoFrozen: boolean;
}

function takeOdometer(s: TripSums, p: DerivePosition): void {
  if (p.mileageKm === null || s.odoBackwards) return;
  if (s.odoLast !== null && p.mileageKm < s.odoLast.mileageKm!) {
    s.odoBackwards = true;
    return;
  }
  if (s.odoLast === null || p.mileageKm > s.odoLast.mileageKm!) s.odoAdvancedAtKm = s.movingKm;
  else if (s.movingKm - s.odoAdvancedAtKm > FROZEN_MIN_KM) s.odoFrozen = true;
  s.odoFirst ??= p;
  s.odoLast = p;
  s.odoCount++;
}

/** The sums of a trip before its first position: its start alone. */
export function startSums(start: DerivePosition | null): TripSums {
  const s: TripSums = {
    start,
    last: -1,
    prev: start,
    beforePrev: null,
    prevKm: 0,
    maxSpeed: 0,
    gnssKm: 0,
    idleMs: 0,
    odoFirst: null,
    odoLast: null,
    odoCount: 0,
    odoBackwards: false,
    movingKm: 0,
    odoAdvancedAtKm: 0,
    odoFrozen: false,
  };
  if (start) takeOdometer(s, start);
  return s;
}

/** Adds the good position `i` (`km`: its step from the last good position before it) to the sums. */
export function addToSums(s: TripSums, positions: readonly DerivePosition[], i: number, km: number, stopMs: number): void {
  const p = positions[i];
  if (s.last >= 0) {
    const q = positions[s.last];
    if (q.acc && q.speed < MIN_MOVING_KMH) s.idleMs += Math.min(positions[s.last + 1].time - q.time, stopMs);
  }
  if (p.speed > s.maxSpeed) s.maxSpeed = p.speed;
  let prev = s.prev;
  const before = s.beforePrev;
  if (before && prev && p.speed >= MIN_MOVING_KMH) {
    const pastKm = distanceKm(before, p);
    if (isDetour(before, prev, p, s.prevKm + km, pastKm)) {
      // `prev` was an outlier: its step is taken back and the track goes past it.
      s.gnssKm -= s.prevKm;
      s.movingKm -= s.prevKm;
      prev = before;
      km = pastKm;
    }
  }
  if (prev && !(km < JITTER_STEP_KM && p.speed < MIN_MOVING_KMH && prev.speed < MIN_MOVING_KMH)) s.gnssKm += km;
  const moving = prev !== null && p.speed >= MIN_MOVING_KMH;
  if (moving) s.movingKm += km;
  takeOdometer(s, p);
  // Only a step counted both ways can be taken back (a moving point's step is never jitter).
  s.beforePrev = moving ? prev : null;
  s.prevKm = moving ? km : 0;
  s.prev = p;
  s.last = i;
}

export const copySums = (s: TripSums): TripSums => ({ ...s });

/**
 * The odometer's distance over the trip's points, when two or more carry it and it is sane: never
 * backwards, never faster than a vehicle goes, never standing still over FROZEN_MIN_KM of track
 * while the vehicle reports speed, and covering that track (plausible.ts).
 */
function odometerKm(s: TripSums): number | null {
  if (s.odoBackwards || s.odoFrozen || s.odoCount < 2) return null;
  const a = s.odoFirst!;
  const b = s.odoLast!;
  const km = b.mileageKm! - a.mileageKm!;
  return odometerPlausible(a.time, b.time, km, s.movingKm) ? km : null;
}

/**
 * The metrics of a trip [begin, end] from its sums. `first`: where it started from (its start, or
 * its own first position when nothing good lies before); `fuel`: level samples in time order.
 */
export function tripMetrics(
  s: TripSums,
  first: DerivePosition,
  stop: DerivePosition,
  begin: number,
  end: number,
  fuel: readonly FuelSample[],
  events: readonly FuelEvent[],
): TripMetrics {
  const odo = odometerKm(s);
  const distance = odo ?? s.gnssKm;
  const durationH = (end - begin) / 3_600_000;
  // Read back from just before the trip, not from `first`: a stop whose fixes drifted keeps its
  // anchor where it parked, and a refuel after that anchor belongs to the stop, not to the trip.
  const startLevel =
    (first.time < begin ? standingLevel(fuel, begin - 1, 'before', events) : null) ?? levelAt(fuel, first.time, end, 'start');
  const endLevel = standingLevel(fuel, end, 'after', events) ?? levelAt(fuel, first.time, end, 'end');
  let fuelL: number | null = null;
  if (startLevel !== null && endLevel !== null) {
    let refuel = 0;
    let drain = 0;
    for (const e of events) {
      if (e.time < begin || e.time > end) continue;
      if (e.kind === 'refuel') refuel += e.amountL;
      else drain += e.amountL;
    }
    fuelL = round1(Math.max(0, startLevel - endLevel + refuel - drain));
  }
  return {
    distanceKm: Math.round(distance * 1000) / 1000,
    distanceSource: odo !== null ? 'odometer' : 'gnss',
    idleS: Math.round(s.idleMs / 1000),
    maxSpeed: s.maxSpeed,
    avgSpeed: durationH > 0 ? Math.round((distance / durationH) * 10) / 10 : 0,
    fuelL,
    start: first,
    stop,
  };
}
