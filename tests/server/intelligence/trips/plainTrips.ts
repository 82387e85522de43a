/**
 * The trips of a window as the plain rules read (segment.ts's header): separate whole-window passes
 * for steps, segments, stationary runs, fuel and each trip's metrics, nothing carried. This was the
 * trips deriver before its walk (tripWalk.ts) could stop and go on; the tests hold the walk to it.
 */

import type { DeriveObdRecord, DerivePosition, DeriveWindow } from '../../../../server/intelligence/deriver';
import { distanceKm } from '../../../../server/intelligence/geo';
import {
  eventThresholdL,
  IDLE_BURN_L_PER_H,
  median,
  round1,
  type FuelEvent,
  type FuelSample,
} from '../../../../server/intelligence/trips/fuel';
import {
  isDrift,
  isJump,
  isMoving,
  isShownOutlier,
  MAX_KMH,
  MIN_MOVING_KMH,
  RELOCATION_MS,
  type Segment,
  type TripSegment,
} from '../../../../server/intelligence/trips/segment';

import { FROZEN_MIN_KM, FROZEN_SHARE, isDetour } from '../../../../server/intelligence/plausible';
import type { TripMetrics } from '../../../../server/intelligence/trips/metrics';
import type { TripsFound } from '../../../../server/intelligence/trips/tripWalk';

interface SegmentOptions {
  stopMinutes: number;
}

const SMOOTH = 3;
const JITTER_STEP_KM = 0.03;

/**
 * What each position of a window is to the last good position before it: a GNSS jump (implied
 * speed above MAX_KMH), a relocation (a jump from a good position RELOCATION_MS old or more, where
 * the rules start afresh), and the distance between them. Every per-position rule of the trips
 * reads these (motion, stationary runs, GNSS distance), so they are computed once per window.
 */
export interface Steps {
  /** Indexes of positions that are GNSS jumps, or parked drift (skipped as jumps are). */
  jumps: boolean[];
  /** Of those, the parked drift: standing, so a stationary run reaches it. */
  drift: boolean[];
  /** km from the last good position before (the window's `before` at first); NaN when there is none. */
  km: Float64Array;
  /** Where the rules start afresh after a relocation (the first position after the last good one): everything before is closed as it stood, and the position has nothing before it. */
  fresh: boolean[];
}

export function steps(positions: readonly DerivePosition[], before: DerivePosition | null): Steps {
  const jumps = new Array<boolean>(positions.length).fill(false);
  const drift = new Array<boolean>(positions.length).fill(false);
  const fresh = new Array<boolean>(positions.length).fill(false);
  const km = new Float64Array(positions.length).fill(NaN);
  let good = before;
  let goodIndex = -1;
  // The good position before `good` (-2: none): `good` is taken back as an outlier when a jump from it is none from there.
  let back: DerivePosition | null = null;
  let backIndex = -2;
  let restart = false;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i];
    jumps[i] = false;
    drift[i] = false;
    fresh[i] = restart;
    km[i] = NaN;
    if (!good || restart) {
      restart = false;
      good = p;
      goodIndex = i;
      back = null;
      continue;
    }
    let d = distanceKm(good, p);
    km[i] = d;
    if (isJump(good, p, d)) {
      const backKm = back ? distanceKm(back, p) : NaN;
      if (back && backIndex >= 0 && isShownOutlier(back, good, p, backKm)) {
        jumps[goodIndex] = true;
        good = back;
        goodIndex = backIndex;
        back = null;
        d = backKm;
        km[i] = d;
      } else {
        if (p.time - good.time < RELOCATION_MS) {
          jumps[i] = true;
          continue;
        }
        // A relocation: everything from the first position after the last good one again, afresh.
        km[i] = NaN;
        i = goodIndex;
        restart = true;
        continue;
      }
    }
    if (isDrift(good, p, d)) {
      // Parked drift: skipped as a jump is.
      jumps[i] = true;
      drift[i] = true;
      continue;
    }
    back = good;
    backIndex = goodIndex;
    good = p;
    goodIndex = i;
  }
  return { jumps, drift, km, fresh };
}

/** `at`: steps(positions, before), when the caller has them already. */
export function segment(
  positions: DerivePosition[],
  before: DerivePosition | null,
  after: DerivePosition | null,
  opts: SegmentOptions,
  at = steps(positions, before),
): Segment[] {
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
    if (at.fresh[i]) {
      if (current) out.push({ ...current, open: false });
      current = null;
      runStart = -1;
      prev = null;
    }
    const moving = isMoving(p, prev, km[i]);
    if (!current) {
      current = moving
        ? { kind: 'trip', first: i, last: i, begin: p.time, end: p.time, open: true }
        : { kind: 'stop', first: i, last: i, begin: p.time, end: p.time, open: true };
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

/** [first, last] index pairs of consecutive standing positions (two or more), jumps left out; parked drift after a standing position reaches its run. */
export function stationaryRuns(positions: DerivePosition[], at: Steps, before: DerivePosition | null): Array<[number, number]> {
  const { jumps, km } = at;
  const runs: Array<[number, number]> = [];
  let prev = before;
  let start = -1;
  let last = -1;
  for (let i = 0; i < positions.length; i++) {
    if (jumps[i]) {
      if (at.drift[i] && start >= 0) last = i;
      continue;
    }
    const p = positions[i];
    if (at.fresh[i]) {
      if (start >= 0 && last > start) runs.push([start, last]);
      start = -1;
      prev = null;
    }
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

/** Level samples in time order: the positions' 0x02 (`before`'s first), else the OBD records' level × tank. */
export function fuelSamples(
  positions: DerivePosition[],
  obd: DeriveObdRecord[],
  tankCapacityL: number | null,
  before: DerivePosition | null = null,
): FuelSample[] {
  const own: FuelSample[] = [];
  // A walk, not a copy of the window with `before` in front: this runs on every pass over the open trip.
  const take = (p: DerivePosition) => {
    if (p.fuelL !== null && p.fuelL >= 0) own.push({ time: p.time, level: p.fuelL, standing: p.speed < MIN_MOVING_KMH });
  };
  if (before) take(before);
  for (const p of positions) take(p);
  if (own.length || !tankCapacityL) return own;
  return obd
    .map((r) => ({ time: r.time, pct: typeof r.readings?.fuelLevel === 'number' ? (r.readings.fuelLevel as number) : null }))
    .filter((r): r is { time: number; pct: number } => r.pct !== null && r.pct >= 0 && r.pct <= 100)
    .map((r) => ({ time: r.time, level: (r.pct * tankCapacityL) / 100, standing: false }));
}

/** The smoothed level at the start (first samples at or after `from`) or the end (last at or before `to`) of a span. */
export function levelAt(samples: FuelSample[], from: number, to: number, side: 'start' | 'end'): number | null {
  const inside = samples.filter((s) => s.time >= from && s.time <= to);
  if (!inside.length) return null;
  const pick = side === 'start' ? inside.slice(0, SMOOTH) : inside.slice(-SMOOTH);
  return median(pick.map((s) => s.level));
}

/** The level at a standstill next to a trip: the median of the standing samples in a row (at most 24) after or before `at`, or with a fuel event among them of the nearest half (at most SMOOTH). */
export function standingLevel(samples: FuelSample[], at: number, side: 'before' | 'after', events: FuelEvent[]): number | null {
  const side_ = side === 'after' ? samples.filter((x) => x.time >= at) : samples.filter((x) => x.time <= at).reverse();
  const row: FuelSample[] = [];
  for (const s of side_) {
    if (!s.standing || row.length === 24) break;
    row.push(s);
  }
  if (!row.length) return null;
  const times = row.map((x) => x.time);
  const stepped = events.some((e) => e.time >= Math.min(...times) && e.time <= Math.max(...times));
  const nearest = stepped ? row.slice(0, Math.max(1, Math.min(SMOOTH, row.length >> 1))) : row;
  return median(nearest.map((s) => s.level));
}

/**
 * Refuels and suspected drains over the stationary runs of the window: `runs` are [first, last]
 * index pairs of positions where the vehicle stood (see stationaryRuns). A drain is detected at the
 * first standing position (not a jump; or the parked drift the run ends at) up to which the run
 * already reads as a drain.
 */
export function fuelEvents(
  positions: DerivePosition[],
  runs: Array<[number, number]>,
  tankCapacityL: number | null,
  jumps: ArrayLike<boolean>,
): FuelEvent[] {
  const threshold = eventThresholdL(tankCapacityL);
  const stepOver = (first: number, last: number) => {
    const run = positions.slice(first, last + 1).filter((p) => p.fuelL !== null);
    if (run.length < 2) return null;
    const k = Math.min(SMOOTH, run.length >> 1);
    const before = median(run.slice(0, k).map((p) => p.fuelL!));
    const after = median(run.slice(-k).map((p) => p.fuelL!));
    const delta = after - before;
    let accOnMs = 0;
    for (let i = first; i < last; i++) if (positions[i].acc) accOnMs += positions[i + 1].time - positions[i].time;
    const allowance = (accOnMs / 3_600_000) * IDLE_BURN_L_PER_H;
    const kind: FuelEvent['kind'] | null = delta >= threshold ? 'refuel' : -delta >= threshold + allowance ? 'drain' : null;
    return kind && { kind, run, before, after, delta };
  };
  const out: FuelEvent[] = [];
  for (const [first, last] of runs) {
    const step = stepOver(first, last);
    if (!step) continue;
    const { kind, run, before, after, delta } = step;
    // When: the sample where the level has gone half of the way.
    const half = before + delta / 2;
    const at = run.find((p) => (delta > 0 ? p.fuelL! >= half : p.fuelL! <= half)) ?? run[0];
    let detectedAt: number | null = null;
    for (let e = first + 1; kind === 'drain' && detectedAt === null && e <= last; e++)
      if ((!jumps[e] || e === last) && stepOver(first, e)?.kind === 'drain') detectedAt = positions[e].time;
    out.push({
      kind,
      time: at.time,
      amountL: round1(Math.abs(delta)),
      levelBeforeL: round1(before),
      levelAfterL: round1(after),
      latitude: at.latitude,
      longitude: at.longitude,
      detectedAt,
    });
  }
  return out;
}

/** The position the trip started from: the last good one before its first (the window's `before` when none). */
function startOf(positions: DerivePosition[], at: Steps, trip: TripSegment, before: DerivePosition | null): DerivePosition | null {
  const { jumps } = at;
  if (at.fresh[trip.first]) return null;
  let from = trip.first - 1;
  while (from >= 0 && jumps[from]) from--;
  return from >= 0 ? positions[from] : before;
}

/**
 * The odometer's distance over the trip's points (its start, then its good positions), when two or
 * more carry it and it is sane: it never runs backwards, and never faster than a vehicle can go.
 * A walk over the window, not a copy of the trip: this runs on every pass over the open trip.
 */
function odometerKm(positions: DerivePosition[], at: Steps, trip: TripSegment, start: DerivePosition | null): number | null {
  let a: DerivePosition | null = null;
  let b: DerivePosition | null = null;
  let n = 0;
  // The track over steps to a position reporting speed, and where the odometer last advanced on it (a reading standing still over FROZEN_MIN_KM of it: frozen).
  let track = 0;
  let advancedAt = 0;
  const take = (p: DerivePosition): boolean => {
    if (p.mileageKm === null) return true;
    if (b !== null && p.mileageKm < b.mileageKm!) return false;
    if (b === null || p.mileageKm > b.mileageKm!) advancedAt = track;
    else if (track - advancedAt > FROZEN_MIN_KM) return false;
    a ??= p;
    b = p;
    n++;
    return true;
  };
  if (start && !take(start)) return null;
  for (const s of tripWay(positions, at, trip, start)) {
    track -= s.takenBackKm;
    if (s.from && s.point.speed >= MIN_MOVING_KMH) track += s.km;
    if (!take(s.point)) return null;
  }
  if (n < 2) return null;
  const km = b!.mileageKm! - a!.mileageKm!;
  const h = (b!.time - a!.time) / 3_600_000;
  if (km < 0 || km > MAX_KMH * h + 0.5) return null;
  // Frozen: the odometer covers too little of a track long enough to tell.
  if (track >= FROZEN_MIN_KM && km < track * FROZEN_SHARE) return null;
  return km;
}

/** A good point of a trip's way: the step to it (from `from`: past a detour when the point before was one), and the step taken back because that point was. */
interface WayStep {
  point: DerivePosition;
  from: DerivePosition | null;
  km: number;
  takenBackKm: number;
}

/**
 * The trip's way over its good points, steps read from the window's: a moving point whose way
 * through is too long (plausible.ts isDetour, judged from the point after it) has its step taken
 * back, and the step after it goes from the point before it.
 */
function tripWay(positions: DerivePosition[], at: Steps, trip: TripSegment, start: DerivePosition | null): WayStep[] {
  const out: WayStep[] = [];
  let prev = start;
  // The point before `prev` and the step between, while that step was a moving one.
  let before: DerivePosition | null = null;
  let prevKm = 0;
  for (let i = trip.first; i <= trip.last; i++) {
    if (at.jumps[i]) continue;
    const p = positions[i];
    let from: DerivePosition | null = prev;
    let km = at.km[i];
    let takenBackKm = 0;
    if (before && prev && p.speed >= MIN_MOVING_KMH) {
      const pastKm = distanceKm(before, p);
      if (isDetour(before, prev, p, prevKm + km, pastKm)) {
        takenBackKm = prevKm;
        from = before;
        km = pastKm;
      }
    }
    out.push({ point: p, from, km, takenBackKm });
    const moving: boolean = from !== null && p.speed >= MIN_MOVING_KMH;
    before = moving ? from : null;
    prevKm = moving ? km : 0;
    prev = p;
  }
  return out;
}

/** The track's length over the trip's way. */
function gnssKm(positions: DerivePosition[], at: Steps, trip: TripSegment, start: DerivePosition | null): number {
  let km = 0;
  for (const s of tripWay(positions, at, trip, start)) {
    km -= s.takenBackKm;
    const from = s.from;
    if (from && !(s.km < JITTER_STEP_KM && s.point.speed < MIN_MOVING_KMH && from.speed < MIN_MOVING_KMH)) km += s.km;
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
  const start = startOf(positions, at, trip, before);
  const odo = odometerKm(positions, at, trip, start);
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
  const startLevel =
    (first.time < trip.begin ? standingLevel(fuel, trip.begin - 1, 'before', events) : null) ??
    levelAt(fuel, first.time, trip.end, 'start');
  const endLevel = standingLevel(fuel, trip.end, 'after', events) ?? levelAt(fuel, first.time, trip.end, 'end');
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

/** What a window holds, found by the plain rules. */
export function plainTrips(w: DeriveWindow): TripsFound {
  const { positions, before, after, vehicle } = w;
  const stopMs = vehicle.settings.stopMinutes * 60_000;
  const at = steps(positions, before);
  const segments = segment(positions, before, after, { stopMinutes: vehicle.settings.stopMinutes }, at);
  const events = fuelEvents(positions, stationaryRuns(positions, at, before), vehicle.tankCapacityL, at.jumps);
  const samples = fuelSamples(positions, w.obdRecords, vehicle.tankCapacityL, before);
  const trips = segments.flatMap((s) =>
    s.kind === 'trip' ? [{ segment: s, metrics: tripMetrics(positions, at, s, before, samples, events, stopMs) }] : [],
  );
  return { segments, trips, fuelEvents: events };
}
