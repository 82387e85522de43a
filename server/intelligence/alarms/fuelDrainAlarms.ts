/**
 * FuelDrain under its policy raised as soon as the batch that shows the drain is committed, like the
 * other report-time paths (durationAlarms.ts), instead of a derivation pass later. A drain is the
 * trips deriver's: a stationary run's level falling beyond the threshold (trips/fuel.ts), and its
 * alarm is keyed by the standing report at which the run first read as a drain (detectors/fuelDrain.ts).
 *
 * Each vehicle's standing run is followed here, report by report, from the levels alone; that is
 * only a filter. When its fall since the run's first samples reaches the smallest threshold (and
 * more than it did when last looked at), the run is walked again by the trips deriver's own walk
 * (TripWalk) over the stored reports from the first report of the vehicle's last stored trip (with
 * the report before it), where, as for the trips deriver's own windows, every decision of the walk
 * depends on nothing earlier. A drain that first read as one in this batch is stored, at the report
 * the pass will find it at, so the pass keeps its id and announces nothing twice.
 *
 * Left to the pass: a vehicle with no trip stored yet, one whose stretch carries the alarm word's
 * fuel bit (the deriver merges its alarm with the drain's), and a run the filter did not follow
 * from its start (after a restart, or a GNSS jump while moving that the walk leaves out).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { loadFromLastTrip, loadVehicleContexts } from '../windowLoad';
import { TripWalk } from '../trips/tripWalk';
import { eventThresholdL, IDLE_BURN_L_PER_H, median, SMOOTH } from '../trips/fuel';
import { MIN_MOVING_KMH } from '../trips/segment';
import { firedFromBatch, storeFoundAheadOfPass, type FoundAhead, type LiveVehicle } from './aheadOfPass';
import { bitsOf } from './detectors/alarmWord';
import { drainAlarm } from './detectors/fuelDrain';
import type { RaisedAlarm } from './store';

/** A committed report, as this path needs it. */
export interface FuelReport {
  vehicleId: number;
  time: number;
  speed: number;
  acc: boolean;
  /** The level the terminal reports (0x02), litres. */
  fuelL: number | null;
  blind: boolean;
  /** The alarm word, unsigned. */
  alarm: number;
}

/** The smallest step any tank makes an event of: the filter's bar (a tank's own is higher). */
const MIN_STEP_L = eventThresholdL(null);
/** A fall looked at and found no drain is looked at again once it has grown by this much. */
const AGAIN_L = 0.5;
/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 200_000;

const fuelBits = bitsOf('FuelDrain');

/** A standing run as the filter follows it. */
interface RunState {
  /** The run's first report (null: no run under way), its first and its last few levels (as many as fuel.ts's medians take). */
  since: number | null;
  first: number[];
  last: number[];
  accOnMs: number;
  /** The fall last looked at (and found no drain); Infinity once the run's drain is stored. */
  looked: number;
}

/** What is followed of a vehicle: its last report, and its standing run. */
interface RunWatch extends RunState {
  time: number;
  acc: boolean;
}

const noRun = (): RunState => ({ since: null, first: [], last: [], accOnMs: 0, looked: -Infinity });

export class FuelDrainAlarms {
  private readonly runs = new Map<number, RunWatch>();

  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the drains these committed reports show under a FuelDrain policy; answers those it created, with the organisation path. */
  async raise(vehicles: ReadonlyArray<LiveVehicle<FuelReport>>): Promise<RaisedAlarm[]> {
    if (this.runs.size > MAX_REMEMBERED) this.runs.clear();
    const looking: Array<{ vehicleId: number; orgPath: string; list: FuelReport[]; fall: number }> = [];
    for (const { vehicleId, orgPath, policies, reports: list } of vehicles) {
      if (!policies.has('FuelDrain')) {
        this.runs.delete(vehicleId);
        continue;
      }
      const fall = this.follow(vehicleId, list);
      if (fall !== null) looking.push({ vehicleId, orgPath, list, fall });
    }
    if (!looking.length) return [];
    // From the first report of each vehicle's last stored trip before the batch (the trips deriver's
    // own window start), and each vehicle's tank and stop minutes, side by side.
    const [stretches, contexts] = await Promise.all([
      loadFromLastTrip(
        this.db,
        looking.map((c) => ({ vehicleId: c.vehicleId, at: c.list[0].time, to: c.list[c.list.length - 1].time + 1 })),
      ),
      loadVehicleContexts(
        this.db,
        looking.map((c) => c.vehicleId),
        'UTC',
      ),
    ]);
    const found: FoundAhead[] = [];
    for (const [i, { vehicleId, orgPath, list, fall }] of looking.entries()) {
      const stretch = stretches[i];
      const vehicle = contexts.get(vehicleId);
      if (!stretch || !vehicle) continue;
      const { positions, before } = stretch;
      const watch = this.runs.get(vehicleId);
      // The fuel bit's alarm is one with the drain's (merged by the deriver): the pass's to raise.
      if (positions.some((p) => (p.alarm & fuelBits) !== 0)) continue;
      const walk = TripWalk.start(positions, before, vehicle.settings.stopMinutes, vehicle.tankCapacityL);
      walk.walkTo(positions.length);
      const drains = walk.fuelEvents().filter((e) => e.kind === 'drain' && e.detectedAt !== null);
      if (watch) watch.looked = drains.some((e) => e.detectedAt! >= (watch.since ?? Infinity)) ? Infinity : fall;
      // What first read as a drain after the report before the batch is what the batch showed.
      if (drains.length)
        found.push({ vehicleId, orgPath, found: drains.map(drainAlarm), firedFrom: firedFromBatch(positions, list[0].time) });
    }
    return storeFoundAheadOfPass(this.db, found);
  }

  /**
   * Follows the vehicle's standing run through these reports (newer than the last followed; an
   * older one makes the memory unsure, so it starts afresh); answers the run's fall when it is worth
   * the walk, else null.
   */
  private follow(vehicleId: number, reports: readonly FuelReport[]): number | null {
    let w = this.runs.get(vehicleId);
    if (!w || reports[0].time <= w.time) this.runs.set(vehicleId, (w = { time: -Infinity, acc: false, ...noRun() }));
    let worth: number | null = null;
    for (const r of reports) {
      if (w.since !== null && w.acc) w.accOnMs += r.time - w.time;
      w.time = r.time;
      w.acc = r.acc;
      // Moving with the ACC on ends a stationary run in the walk (segment.ts), whatever else it reads.
      if (r.acc && r.speed >= MIN_MOVING_KMH) {
        Object.assign(w, noRun());
        continue;
      }
      if (w.since === null) w.since = r.time;
      if (r.fuelL === null) continue;
      if (w.first.length < SMOOTH) w.first.push(r.fuelL);
      w.last.push(r.fuelL);
      if (w.last.length > SMOOTH) w.last.shift();
      const fall = median(w.first) - median(w.last);
      // Half the idling allowance: the filter's run may begin before the walk's, with more ACC-on time.
      const bar = MIN_STEP_L + ((w.accOnMs / 3_600_000) * IDLE_BURN_L_PER_H) / 2;
      if (fall >= bar && fall >= w.looked + AGAIN_L) worth = Math.max(worth ?? -Infinity, fall);
    }
    return worth;
  }
}
