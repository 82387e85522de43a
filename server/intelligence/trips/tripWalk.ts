/**
 * The trips of a window as one walk over its positions, in order, that can stop anywhere and go on
 * later from where it stopped (a live pass goes on from the last pass's walk: tripCarry.ts). The
 * walk decides, per position and from it and the good position before it only (segment.ts's rules):
 * - whether it is a GNSS jump, a relocation or parked drift, and its distance from the good position before it;
 * - where trips and stops begin and end;
 * - the sums each trip measures (metrics.ts), and the stationary runs fuel events are found in.
 * What it has walked is never changed by what comes after, except in three places the walk keeps
 * apart: a trip ends back where a stationary run began once the run lasts the stop minutes (the
 * trip's sums are kept as they stood at the run's start); a driving position the next one shows up
 * as an outlier is taken back (the trip as it stood before it is kept: segment.ts isShownOutlier);
 * and the open segment and stationary run at the walk's end are closed only in `result()`, which
 * changes nothing it holds. A relocation (segment.ts) closes what was walked and walks again the
 * positions it had skipped as jumps.
 */

import type { DeriveObdRecord, DerivePosition } from '../deriver';
import { distanceKm as geoDistanceKm } from '../geo';
import { growRun, obdFuelSamples, openRun, ownFuelSample, runEvent, type FuelEvent, type FuelSample, type StandingRun } from './fuel';
import { addToSums, copySums, startSums, tripMetrics, type TripMetrics, type TripSums } from './metrics';
import * as segmentRules from './segment';
import type { Segment, StopSegment, TripSegment } from './segment';

/** Read once: under tsx an imported binding is a getter call on every use, and these run per position (segment.ts). */
const distanceKm = geoDistanceKm;
const { isMoving, isJump, isDrift, isShownOutlier, RELOCATION_MS, MIN_MOVING_KMH } = segmentRules;

/** A segment as the walk holds it: a trip with its sums. */
type Held = StopSegment | (TripSegment & { sums: TripSums });

/** The open trip as it stood before its last good position was added (to take that position back). */
interface TripBefore {
  sums: TripSums;
  last: number;
  end: number;
}

export interface WalkedTrip {
  segment: TripSegment;
  metrics: TripMetrics;
}

/** What a window's walk found. */
export interface TripsFound {
  /** Trips and stops in order. */
  segments: Segment[];
  trips: WalkedTrip[];
  fuelEvents: FuelEvent[];
}

/** Where a walk stood: everything it needs to go on, and how long its lists were. */
export interface WalkPoint {
  next: number;
  good: DerivePosition | null;
  goodIndex: number;
  goodBefore: DerivePosition | null;
  goodBeforeIndex: number;
  tripBefore: TripBefore | null;
  current: Held | null;
  runStart: number;
  runStartTime: number;
  runSums: TripSums | null;
  run: StandingRun | null;
  closedLength: number;
  eventsLength: number;
  samplesLength: number;
  runFuelLength: number;
  lastDrift: number;
}

const copyHeld = (h: Held | null): Held | null => (h === null ? null : h.kind === 'trip' ? { ...h, sums: copySums(h.sums) } : { ...h });
const copyBefore = (b: TripBefore | null): TripBefore | null => b && { ...b, sums: copySums(b.sums) };

export class TripWalk {
  /** Index of the next position to walk. */
  private next = 0;
  /** The last good position walked (not a GNSS jump), or the window's `before`; its index (-1: `before`). */
  private good: DerivePosition | null;
  private goodIndex = -1;
  /**
   * The good position before `good` and its index, and the open trip as it stood before `good`
   * extended it (null: `good` did not drive on from a driving position): what a position that shows
   * `good` up as an outlier goes back to (segment.ts isShownOutlier).
   */
  private goodBefore: DerivePosition | null = null;
  private goodBeforeIndex = -1;
  private tripBefore: TripBefore | null = null;
  private current: Held | null = null;
  /** Within a trip: index where the current stationary run began (-1: none), its time, and the trip's sums there. */
  private runStart = -1;
  private runStartTime = 0;
  private runSums: TripSums | null = null;
  /** The stationary run fuel events are read from (two or more standing positions in a row). */
  private run: StandingRun | null = null;
  /**
   * The last parked drift walked while a run was open (-1: none). Drift is no place, but its level
   * is read standing: a run that ends without a standing position after it reaches on to it, or a
   * stop whose fixes wander off for good would lose the refuel or drain in it. Not at a relocation,
   * which walks the positions after the last good one again, afresh.
   */
  private lastDrift = -1;
  /** Segments closed, fuel events of runs that ended, and the positions' own level samples (`before`'s first). */
  private readonly closed: Held[];
  private readonly events: FuelEvent[];
  private readonly samples: FuelSample[];
  private readonly stopMs: number;

  private constructor(
    private readonly positions: readonly DerivePosition[],
    before: DerivePosition | null,
    stopMinutes: number,
    private readonly tankCapacityL: number | null,
    lists: { closed: Held[]; events: FuelEvent[]; samples: FuelSample[] },
  ) {
    this.good = before;
    this.stopMs = stopMinutes * 60_000;
    this.closed = lists.closed;
    this.events = lists.events;
    this.samples = lists.samples;
  }

  /** A walk from the window's first position. */
  static start(
    positions: readonly DerivePosition[],
    before: DerivePosition | null,
    stopMinutes: number,
    tankCapacityL: number | null,
  ): TripWalk {
    const samples: FuelSample[] = [];
    const own = before ? ownFuelSample(before) : null;
    if (own) samples.push(own);
    return new TripWalk(positions, before, stopMinutes, tankCapacityL, { closed: [], events: [], samples });
  }

  /**
   * A walk that goes on from `point` of `from` over `positions`, which begin with the positions
   * `from` walked. It takes over `from`'s lists (cut back to the point), so `from` is done with.
   */
  static resume(from: TripWalk, point: WalkPoint, positions: readonly DerivePosition[]): TripWalk {
    const w = new TripWalk(positions, null, from.stopMs / 60_000, from.tankCapacityL, {
      closed: from.closed,
      events: from.events,
      samples: from.samples,
    });
    w.closed.length = point.closedLength;
    w.events.length = point.eventsLength;
    w.samples.length = point.samplesLength;
    w.next = point.next;
    w.good = point.good;
    w.goodIndex = point.goodIndex;
    w.goodBefore = point.goodBefore;
    w.goodBeforeIndex = point.goodBeforeIndex;
    w.tripBefore = copyBefore(point.tripBefore);
    w.current = copyHeld(point.current);
    w.runStart = point.runStart;
    w.runStartTime = point.runStartTime;
    w.runSums = point.runSums;
    w.run = point.run && { ...point.run, fuel: point.run.fuel };
    if (w.run) w.run.fuel.length = point.runFuelLength;
    w.lastDrift = point.lastDrift;
    return w;
  }

  /** How far the walk went: the index of the next position it would walk. */
  get walked(): number {
    return this.next;
  }

  /** Where the walk stands now, to resume from (the objects it goes on changing are copied). */
  point(): WalkPoint {
    return {
      next: this.next,
      good: this.good,
      goodIndex: this.goodIndex,
      goodBefore: this.goodBefore,
      goodBeforeIndex: this.goodBeforeIndex,
      tripBefore: copyBefore(this.tripBefore),
      current: copyHeld(this.current),
      runStart: this.runStart,
      runStartTime: this.runStartTime,
      runSums: this.runSums,
      run: this.run && { ...this.run },
      closedLength: this.closed.length,
      eventsLength: this.events.length,
      samplesLength: this.samples.length,
      runFuelLength: this.run?.fuel.length ?? 0,
      lastDrift: this.lastDrift,
    };
  }

  /** Walks the positions before index `end`. */
  walkTo(end: number): void {
    const positions = this.positions;
    // A relocation walks again the positions after the anchor: their level samples are taken once.
    let sampledTo = this.next;
    for (let i = this.next; i < end; i++) {
      const p = positions[i];
      if (i >= sampledTo) {
        const own = ownFuelSample(p);
        if (own) this.samples.push(own);
        sampledTo = i + 1;
      }
      let good = this.good;
      let km = NaN;
      if (good) {
        km = distanceKm(good, p);
        if (isJump(good, p, km)) {
          const back = this.goodBefore;
          const backKm = back && this.tripBefore ? distanceKm(back, p) : NaN;
          if (back && this.tripBefore && isShownOutlier(back, good, p, backKm)) {
            // `good` was an outlier: the trip goes back to how it stood before it, and on from `back`.
            this.takeBackGood(back);
            good = back;
            km = backKm;
          } else {
            if (p.time - good.time < RELOCATION_MS) continue;
            // Relocated: afresh from the first position after the anchor (the loop's i++ goes there).
            i = this.goodIndex;
            this.relocate();
            continue;
          }
        }
        if (isDrift(good, p, km)) {
          if (this.run) this.lastDrift = i;
          continue;
        }
      }
      const moving = isMoving(p, good, km);
      const current = this.current;
      this.tripBefore =
        good && current?.kind === 'trip' && good.acc && good.speed >= MIN_MOVING_KMH && p.acc && p.speed >= MIN_MOVING_KMH
          ? { sums: copySums(current.sums), last: current.last, end: current.end }
          : null;
      this.stand(i, moving);
      this.segment(i, p, moving, km);
      this.goodBefore = good;
      this.goodBeforeIndex = this.goodIndex;
      this.good = p;
      this.goodIndex = i;
    }
    if (end > this.next) this.next = end;
  }

  /** Takes the last good position back (an outlier the next one showed up): the open trip as it stood before it, `back` the good position again. */
  private takeBackGood(back: DerivePosition): void {
    const trip = this.current as Held & { kind: 'trip' }; // tripBefore is only kept while a trip is open
    const before = this.tripBefore!;
    trip.sums = before.sums;
    trip.last = before.last;
    trip.end = before.end;
    this.tripBefore = null;
    this.good = back;
    this.goodIndex = this.goodBeforeIndex;
    this.goodBefore = null;
    this.goodBeforeIndex = -1;
  }

  /** A relocation (segment.ts): closes what was walked as it stands, so the walk goes on as from a window's first position, with nothing before it. */
  private relocate(): void {
    const current = this.current;
    if (current) this.closed.push({ ...current, open: false });
    if (this.run) {
      const e = runEvent(this.positions, this.run, this.tankCapacityL);
      if (e) this.events.push(e);
    }
    this.current = null;
    this.run = null;
    this.lastDrift = -1;
    this.runStart = -1;
    this.runSums = null;
    this.good = null;
    this.goodIndex = -1;
    this.goodBefore = null;
    this.goodBeforeIndex = -1;
    this.tripBefore = null;
  }

  /** The stationary runs fuel events are read from. */
  private stand(i: number, moving: boolean): void {
    if (!moving) {
      if (this.run) growRun(this.run, this.positions, i, this.tankCapacityL);
      else this.run = openRun(this.positions, i);
      return;
    }
    if (this.run) {
      const e = runEvent(this.positions, this.reachingDrift(this.run), this.tankCapacityL);
      if (e) this.events.push(e);
      this.run = null;
    }
  }

  /** The run as it closes: reaching on to the parked drift walked after its last standing position (lastDrift). */
  private reachingDrift(run: StandingRun): StandingRun {
    if (this.lastDrift <= run.last) return run;
    const reached = { ...run, fuel: [...run.fuel] };
    growRun(reached, this.positions, this.lastDrift, this.tankCapacityL);
    return reached;
  }

  private openTrip(i: number, p: DerivePosition, km: number): Held {
    const sums = startSums(this.good);
    addToSums(sums, this.positions, i, km, this.stopMs);
    return { kind: 'trip', first: i, last: i, begin: p.time, end: p.time, open: true, sums };
  }

  /** Closes the current trip where its stationary run began. */
  private closeTripAtRun(trip: Held & { kind: 'trip' }): void {
    this.closed.push({ ...trip, last: this.runStart, end: this.runStartTime, open: false, sums: this.runSums! });
  }

  private segment(i: number, p: DerivePosition, moving: boolean, km: number): void {
    const current = this.current;
    const stopMs = this.stopMs;
    if (!current) {
      this.current = moving ? this.openTrip(i, p, km) : { kind: 'stop', first: i, last: i, begin: p.time, end: p.time, open: true };
      return;
    }
    if (current.kind === 'stop') {
      if (moving) {
        this.closed.push({ ...current, end: p.time, open: false });
        this.current = this.openTrip(i, p, km);
        this.runStart = -1;
      } else {
        current.last = i;
        current.end = p.time;
      }
      return;
    }
    const good = this.good;
    if (moving && this.runStart >= 0 && good !== null && p.time - good.time >= stopMs) {
      // Standing when last seen, then silent for the stop minutes (a terminal that sleeps with the
      // ignition off reports again when driven): the trip ended where it stood.
      this.closeTripAtRun(current);
      this.closed.push({ kind: 'stop', first: this.runStart, last: this.goodIndex, begin: this.runStartTime, end: p.time, open: false });
      this.current = this.openTrip(i, p, km);
      this.runStart = -1;
      return;
    }
    if (moving) {
      this.runStart = -1;
      this.extendTrip(current, i, p, km);
      return;
    }
    let extended = false;
    if (this.runStart < 0) {
      if (good !== null && p.time - good.time >= stopMs && current.last < i) {
        // A gap without displacement: the vehicle stood still since the position before.
        this.runStart = current.last;
      } else {
        this.extendTrip(current, i, p, km);
        extended = true;
        this.runStart = i;
      }
      this.runStartTime = this.positions[this.runStart].time;
      this.runSums = copySums(current.sums);
    }
    if (p.time - this.runStartTime >= stopMs) {
      this.closeTripAtRun(current);
      this.current = { kind: 'stop', first: this.runStart, last: i, begin: this.runStartTime, end: p.time, open: true };
      this.runStart = -1;
    } else if (!extended) this.extendTrip(current, i, p, km);
  }

  private extendTrip(trip: Held & { kind: 'trip' }, i: number, p: DerivePosition, km: number): void {
    addToSums(trip.sums, this.positions, i, km, this.stopMs);
    trip.last = i;
    trip.end = p.time;
  }

  /** The fuel events of what was walked, with the open run closed as the walk's end leaves it (changes nothing the walk holds). */
  fuelEvents(): FuelEvent[] {
    const last = this.run && runEvent(this.positions, this.reachingDrift(this.run), this.tankCapacityL);
    return last ? [...this.events, last] : [...this.events];
  }

  /**
   * The trips, stops and fuel events of what was walked, with the open segment and run closed as
   * the window's end leaves them (`after`: the first position after the window). Changes nothing
   * the walk holds, so it may go on afterwards.
   */
  result(after: DerivePosition | null, obdRecords: readonly DeriveObdRecord[]): TripsFound {
    const segments: Held[] = [...this.closed];
    const current = copyHeld(this.current);
    if (current) {
      if (current.kind === 'stop' && after) {
        current.end = after.time;
        current.open = false;
      }
      segments.push(current);
    }
    const events = this.fuelEvents();
    const samples = this.samples.length ? this.samples : obdFuelSamples(obdRecords, this.tankCapacityL);
    const trips: WalkedTrip[] = [];
    const out: Segment[] = [];
    for (const h of segments) {
      if (h.kind === 'stop') {
        out.push(h);
        continue;
      }
      const { sums, ...segment } = h;
      // Where it started from: the good position before its first, or its own first when there is none.
      const first = sums.start ?? this.positions[segment.first];
      trips.push({ segment, metrics: tripMetrics(sums, first, this.positions[segment.last], segment.begin, segment.end, samples, events) });
      out.push(segment);
    }
    return { segments: out, trips, fuelEvents: events };
  }
}
