/**
 * Trips and stops of one window of positions (pure). Motion is decided per position from itself
 * and the position before it only, so a window that starts at a trip's first position (with the
 * position before it as `before`) segments exactly as a run over the whole history would:
 * - moving: ACC on and speed ≥ MIN_MOVING_KMH; or displaced more than JITTER_KM from the position
 *   before with the ACC off and speed (towing), or with neither position reporting speed (a terminal
 *   without speed); a standing position right after a fast one is not displacement;
 * - a GNSS jump (implied speed above MAX_KMH) is left out of motion and distance;
 * - a trip ends where a stationary run of at least the organisation's stop minutes begins; shorter
 *   runs stay inside the trip (traffic, idling); a data gap without displacement counts as
 *   stationary from the position before it, and so does a gap of at least the stop minutes after a
 *   standing position, even when the next position moves (it begins the next trip).
 */

import type { DerivePosition } from '../deriver';
import { distanceKm as geoDistanceKm } from '../geo';

/*
 * Under tsx (how the server runs) an imported binding is read through a getter on every use: in
 * the per-position loops below that was a quarter of the trip deriver's time. Read once here.
 */
const distanceKm = geoDistanceKm;

export const MIN_MOVING_KMH = 5;
export const JITTER_KM = 0.1;
export const MAX_KMH = 250;

export interface SegmentOptions {
  stopMinutes: number;
}

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

/**
 * What each position of a window is to the last good position before it: a GNSS jump (implied
 * speed above MAX_KMH), and the distance between them. Every per-position rule of the trips reads
 * this pair (motion, stationary runs, GNSS distance), so it is computed once per window.
 */
export interface Steps {
  /** Indexes of positions that are GNSS jumps. */
  jumps: boolean[];
  /** km from the last good position before (the window's `before` at first); NaN when there is none. */
  km: Float64Array;
}

export function steps(positions: readonly DerivePosition[], before: DerivePosition | null): Steps {
  const jumps = new Array<boolean>(positions.length).fill(false);
  const km = new Float64Array(positions.length).fill(NaN);
  let good = before;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    if (!good) {
      good = p;
      continue;
    }
    const d = distanceKm(good, p);
    const h = (p.time - good.time) / 3_600_000;
    km[i] = d;
    if (h > 0 && d / h > MAX_KMH && d > JITTER_KM) jumps[i] = true;
    else good = p;
  }
  return { jumps, km };
}

/** `km`: the step's distance from `prev` (steps). */
function isMoving(p: DerivePosition, prev: DerivePosition | null, km: number): boolean {
  const fast = p.speed >= MIN_MOVING_KMH;
  if (p.acc && fast) return true;
  if (!prev || (!fast && prev.speed >= MIN_MOVING_KMH)) return false;
  return km > JITTER_KM;
}

/** `at`: steps(positions, before), when the caller has them already. */
export function segment(positions: DerivePosition[], before: DerivePosition | null, after: DerivePosition | null, opts: SegmentOptions, at = steps(positions, before)): Segment[] {
  const { jumps, km } = at;
  const stopMs = opts.stopMinutes * 60_000;
  const out: Segment[] = [];
  let prev: DerivePosition | null = before;
  let current: Segment | null = null;
  /** Within a trip: index where the current stationary run began, or -1. */
  let runStart = -1;
  let runStartTime = 0;
  /** Index of `prev` in the window (-1: the window's `before`). */
  let prevIndex = -1;

  for (let i = 0; i < positions.length; i++) {
    if (jumps[i]) continue;
    const p = positions[i];
    const moving = isMoving(p, prev, km[i]);
    if (!current) {
      current = moving ? { kind: 'trip', first: i, last: i, begin: p.time, end: p.time, open: true } : { kind: 'stop', first: i, last: i, begin: p.time, end: p.time, open: true };
    } else if (current.kind === 'stop') {
      if (moving) {
        current.end = p.time;
        current.open = false;
        out.push(current);
        current = { kind: 'trip', first: i, last: i, begin: p.time, end: p.time, open: true };
        runStart = -1;
      } else {
        current.last = i;
        current.end = p.time;
      }
    } else {
      if (moving && runStart >= 0 && prev !== null && p.time - prev.time >= stopMs) {
        // Standing when last seen, then silent for the stop minutes (a terminal that sleeps with
        // the ignition off reports again when driven): the trip ended where it stood.
        current.last = runStart;
        current.end = runStartTime;
        current.open = false;
        out.push(current);
        out.push({ kind: 'stop', first: runStart, last: prevIndex, begin: runStartTime, end: p.time, open: false });
        current = { kind: 'trip', first: i, last: i, begin: p.time, end: p.time, open: true };
        runStart = -1;
      } else if (moving) {
        runStart = -1;
        current.last = i;
        current.end = p.time;
      } else {
        if (runStart < 0) {
          // A gap without displacement: the vehicle stood still since the position before.
          const gapFromPrev = prev !== null && p.time - prev.time >= stopMs && current.last < i;
          runStart = gapFromPrev ? current.last : i;
          runStartTime = positions[runStart].time;
        }
        if (p.time - runStartTime >= stopMs) {
          current.last = runStart;
          current.end = runStartTime;
          current.open = false;
          out.push(current);
          current = { kind: 'stop', first: runStart, last: i, begin: runStartTime, end: p.time, open: true };
          runStart = -1;
        } else {
          current.last = i;
          current.end = p.time;
        }
      }
    }
    prev = p;
    prevIndex = i;
  }
  if (current) {
    if (current.kind === 'stop' && after) {
      current.end = after.time;
      current.open = false;
    }
    out.push(current);
  }
  return out;
}

/** [first, last] index pairs of consecutive standing positions (two or more), jumps left out. */
export function stationaryRuns(positions: DerivePosition[], at: Steps, before: DerivePosition | null): Array<[number, number]> {
  const { jumps, km } = at;
  const runs: Array<[number, number]> = [];
  let prev = before;
  let start = -1;
  let last = -1;
  for (let i = 0; i < positions.length; i++) {
    if (jumps[i]) continue;
    const p = positions[i];
    if (!isMoving(p, prev, km[i])) {
      if (start < 0) start = i;
      last = i;
    } else {
      if (start >= 0 && last > start) runs.push([start, last]);
      start = -1;
    }
    prev = p;
  }
  if (start >= 0 && last > start) runs.push([start, last]);
  return runs;
}
