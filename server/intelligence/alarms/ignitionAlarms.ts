/**
 * FireOn (ignition off → on) raised as soon as the batch carrying it is committed, like the alarm
 * word's alarms (bitAlarms.ts), instead of a derivation pass later: under load a pass takes seconds
 * (README, Benchmarks: Alarms). Only for vehicles whose organisation has a FireOn policy in force,
 * and stored exactly as the deriver finds it (vehicle, FireOn, subject '', begin = end = fired =
 * the report's time, the report's place, detail {sources: ['policy']}), so the pass keeps its id
 * and announces nothing twice. An alarm begins at a live report with ACC on whose stored
 * predecessor (device-time order) has ACC off.
 *
 * Each vehicle's last ACC seen here spares the database for reports that cannot be a transition
 * (ACC on after ACC on, the usual case while driving); a possible transition is always checked
 * against the stored predecessor, since another process may have stored reports in between.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DeriveLookups } from '../settingsCache';
import { storedPredecessors, storeAheadOfPass } from './aheadOfPass';
import { ALARM_META } from './types';
import type { RaisedAlarm } from './store';

/** A committed report, as this path needs it. */
export interface IgnitionReport {
  vehicleId: number;
  /** Epoch ms. */
  time: number;
  acc: boolean;
  blind: boolean;
  latitude: number;
  longitude: number;
}

/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 200_000;

export class IgnitionAlarms {
  private readonly last = new Map<number, { time: number; acc: boolean }>();

  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the FireOn alarms these committed reports begin; answers those it created, with the organisation path. */
  async raise(reports: readonly IgnitionReport[], lookups: DeriveLookups, pathOf: ReadonlyMap<number, string>): Promise<RaisedAlarm[]> {
    const candidates = this.candidates(reports);
    if (!candidates.length) return [];
    const policed: IgnitionReport[] = [];
    for (const c of candidates) {
      const path = pathOf.get(c.vehicleId);
      if (path !== undefined && (await lookups.policies(path)).has('FireOn')) policed.push(c);
    }
    if (!policed.length) return [];
    const before = await storedPredecessors(this.db, policed);
    const meta = ALARM_META.FireOn;
    // No predecessor: the deriver raises nothing either (a first report is no transition).
    const ignitions = policed.filter((_, i) => before[i]?.acc === false);
    const stored = await storeAheadOfPass(
      this.db,
      ignitions.map((r) => ({
        vehicleId: r.vehicleId,
        type: 'FireOn' as const,
        subject: '',
        begin: r.time,
        end: r.time,
        level: meta.level,
        category: meta.category,
        latitude: r.latitude,
        longitude: r.longitude,
        value: null,
        fenceId: null,
        detail: { sources: ['policy'] },
      })),
    );
    return stored.flatMap((a) => (a ? [{ ...a, orgPath: pathOf.get(a.vehicleId)! }] : []));
  }

  /**
   * The live reports with ACC on that may follow one with ACC off: the previous report in the
   * batch, or else the last remembered, says off or is not known. Remembers each vehicle's newest.
   */
  private candidates(reports: readonly IgnitionReport[]): IgnitionReport[] {
    const sorted = [...reports].sort((a, b) => a.vehicleId - b.vehicleId || a.time - b.time);
    if (this.last.size > MAX_REMEMBERED) this.last.clear();
    const out: IgnitionReport[] = [];
    let prev: { vehicleId: number; time: number; acc: boolean } | null = null;
    for (const r of sorted) {
      if (!prev || prev.vehicleId !== r.vehicleId) {
        const known = this.last.get(r.vehicleId);
        prev = known && known.time < r.time ? { vehicleId: r.vehicleId, ...known } : null;
      }
      if (r.acc && !r.blind && (prev === null || !prev.acc)) out.push(r);
      prev = { vehicleId: r.vehicleId, time: r.time, acc: r.acc };
      const known = this.last.get(r.vehicleId);
      if (!known || known.time < r.time) this.last.set(r.vehicleId, { time: r.time, acc: r.acc });
    }
    return out;
  }
}
