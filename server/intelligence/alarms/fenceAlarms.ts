/**
 * Fence crossings (FenceIn, FenceOut) raised as soon as the batch that completes their dwell is
 * committed, like the alarm word's alarms, FireOn and Fault, instead of a derivation pass later:
 * under load a pass takes seconds (README, Benchmarks: Alarms).
 *
 * Each vehicle's side of each of its fences is followed here, report by report, with the rule of
 * fenceIntervals (a side counts once held for the dwell). That is only a filter: when it sees a
 * crossing complete, the crossing is found again by fenceIntervals itself over the stored reports
 * of a stretch before the batch no longer than the pass's own look-back, so the pass, which reads
 * at least that stretch, settles on the same side and finds the same crossing (same key: fence,
 * begin), keeps its id and announces nothing twice. A vehicle first seen after a restart has no
 * side yet: its first crossings are left to the pass.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DeriveLookups } from '../settingsCache';
import { loadPositionsMany } from '../windowLoad';
import { storeFoundAheadOfPass, type FoundAhead, type LiveVehicle } from './aheadOfPass';
import { lookbackMs } from './deriver';
import { fenceIntervals, inside, type FenceRule } from './detectors/fences';
import { MINUTE } from './detectors/motionRules';
import type { RaisedAlarm } from './store';

/** A committed report, as this path needs it. */
export interface FenceReport {
  vehicleId: number;
  /** Epoch ms. */
  time: number;
  latitude: number;
  longitude: number;
  blind: boolean;
}

/** One fence's side as fenceIntervals follows it: the settled side, and since when the other side has held. */
interface Side {
  state: boolean | null;
  candidate: number | null;
}

/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 100_000;

export class FenceAlarms {
  private readonly sides = new Map<number, { time: number; fences: Map<number, Side> }>();

  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the crossings these committed reports complete; answers those it created, with the organisation path. */
  async raise(vehicles: ReadonlyArray<LiveVehicle<FenceReport>>, lookups: DeriveLookups): Promise<RaisedAlarm[]> {
    if (!vehicles.length) return [];
    if (this.sides.size > MAX_REMEMBERED) this.sides.clear();
    // Every vehicle's fences at once: one wait for the batch, not one per vehicle behind the event loop's queue.
    const fencesOf = await Promise.all(vehicles.map((v) => lookups.fences(v.vehicleId, v.orgPath)));
    const crossedBy: Array<{ vehicleId: number; path: string; crossed: FenceRule[]; from: number; to: number }> = [];
    for (const [i, { vehicleId, orgPath, policies, reports: list }] of vehicles.entries()) {
      const fences = fencesOf[i].filter((f) => f.alarmOnEnter || f.alarmOnExit);
      if (!fences.length) continue;
      const crossed = this.follow(vehicleId, list, fences);
      if (!crossed.length) continue;
      // The stretch the pass reads at least: its look-back, but no more than the dwell needs.
      const longestDwell = Math.max(...crossed.map((f) => f.dwellSeconds * 1000));
      const before = Math.min(lookbackMs(policies), 2 * longestDwell + MINUTE);
      crossedBy.push({ vehicleId, path: orgPath, crossed, from: list[0].time - before, to: list[list.length - 1].time + 1 });
    }
    if (!crossedBy.length) return [];
    // Every stretch in one statement.
    const stretches = await loadPositionsMany(this.db, crossedBy);
    const found: FoundAhead[] = crossedBy.map(({ vehicleId, path, crossed }, i) => ({
      vehicleId,
      orgPath: path,
      found: crossed.flatMap((fence) => fenceIntervals(stretches[i], fence).filter((a) => a.type === 'FenceIn' || a.type === 'FenceOut')),
    }));
    return storeFoundAheadOfPass(this.db, found);
  }

  /**
   * Follows the vehicle's side of each fence through these reports (newer than the last followed;
   * an older report makes the memory unsure, so it starts afresh); answers the fences a crossing
   * with an alarm completed in.
   */
  private follow(vehicleId: number, reports: readonly FenceReport[], fences: readonly FenceRule[]): FenceRule[] {
    let memory = this.sides.get(vehicleId);
    if (!memory || reports[0].time <= memory.time) this.sides.set(vehicleId, (memory = { time: -Infinity, fences: new Map() }));
    const crossed: FenceRule[] = [];
    for (const fence of fences) {
      let side = memory.fences.get(fence.id);
      if (!side) memory.fences.set(fence.id, (side = { state: null, candidate: null }));
      const dwellMs = fence.dwellSeconds * 1000;
      let found = false;
      for (const p of reports) {
        const now = inside(fence.area, p);
        if (now === side.state) side.candidate = null;
        else {
          side.candidate ??= p.time;
          if (p.time - side.candidate >= dwellMs) {
            if (side.state !== null && (now ? fence.alarmOnEnter : fence.alarmOnExit)) found = true;
            side.state = now;
            side.candidate = null;
          }
        }
      }
      if (found) crossed.push(fence);
    }
    memory.time = reports[reports.length - 1].time;
    return crossed;
  }
}
