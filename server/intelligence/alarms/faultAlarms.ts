/**
 * Fault (a trouble code appears) raised as soon as the batch carrying it is committed, like the
 * alarm word's alarms and FireOn (bitAlarms.ts, ignitionAlarms.ts), instead of a derivation pass
 * later: under load a pass takes seconds (README, Benchmarks: Alarms). Only for vehicles whose
 * organisation has a Fault policy in force.
 *
 * The alarm is found by the deriver's own rule (faultIntervals over dtcReports, with the expert
 * library), run on the vehicle's trouble-code reports of the batch's stretch and the last one before
 * it (in the recent past, of each source, recentDtcReports): a code begins at a report that lists it when the report before does not, so an alarm beginning
 * after the first of those reports is exactly the one the pass finds (same key, level, detail),
 * and the pass keeps its id and announces nothing twice. A report with no trouble-code report in
 * the recent past before it is left to the pass, which reads back as far as it must.
 *
 * Each vehicle's last codes seen here spare the database for reports that list nothing new (a
 * terminal repeats its codes on every report while they last).
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DeriveLookups } from '../settingsCache';
import { storeFoundAheadOfPass, type FoundAhead } from './aheadOfPass';
import { faultIntervals } from './detectors/obd';
import { expertLookup, recentDtcReports, type DtcSpan } from './dtcReports';
import type { RaisedAlarm } from './store';

/** A committed live report listing trouble codes: a position's OBD block or an OBD DTC record. */
export interface FaultReport {
  vehicleId: number;
  /** Epoch ms. */
  time: number;
  codes: readonly string[];
}

/** How far back a report's predecessor is looked for (terminals repeat their codes far more often). */
export const RECENT_MS = 15 * 60_000;

/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 200_000;

const normalised = (codes: readonly string[]) => new Set(codes.map((c) => c.trim().toUpperCase()));

export class FaultAlarms {
  private readonly last = new Map<number, { time: number; codes: Set<string> }>();

  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the Fault alarms these committed reports begin; answers those it created, with the organisation path. */
  async raise(reports: readonly FaultReport[], lookups: DeriveLookups, pathOf: ReadonlyMap<number, string>): Promise<RaisedAlarm[]> {
    const spans = this.candidates(reports);
    if (!spans.size) return [];
    const faulty: Array<DtcSpan & { orgPath: string }> = [];
    for (const [vehicleId, span] of spans) {
      const orgPath = pathOf.get(vehicleId);
      if (orgPath !== undefined && (await lookups.policies(orgPath)).has('Fault'))
        faulty.push({ vehicleId, orgPath, ...span, back: span.from - RECENT_MS });
    }
    // The vehicles side by side: each span's reports and the one before it, in one read.
    const recent = await recentDtcReports(this.db, faulty);
    const found: FoundAhead[] = [];
    for (let i = 0; i < faulty.length; i++) {
      const { vehicleId, orgPath, from } = faulty[i];
      const reports = recent[i];
      if (!reports.length) continue;
      const first = Math.min(...reports.map((r) => r.time));
      // Begun at a report of this batch, with a report before it that did not list the code.
      const begun = faultIntervals(reports, await expertLookup(lookups, reports)).filter((a) => a.begin >= from && a.begin > first);
      if (begun.length) found.push({ vehicleId, orgPath, found: begun });
    }
    return storeFoundAheadOfPass(this.db, found);
  }

  /**
   * Per vehicle, the span of its reports in the batch when one of them may list a code the report
   * before did not: the previous report of the batch, or else the last remembered, lacks one of
   * its codes or is not known. Remembers each vehicle's newest codes.
   */
  private candidates(reports: readonly FaultReport[]): Map<number, { from: number; to: number }> {
    const sorted = [...reports].sort((a, b) => a.vehicleId - b.vehicleId || a.time - b.time);
    if (this.last.size > MAX_REMEMBERED) this.last.clear();
    const out = new Map<number, { from: number; to: number }>();
    let prev: { vehicleId: number; codes: Set<string> } | null = null;
    for (const r of sorted) {
      if (!prev || prev.vehicleId !== r.vehicleId) {
        const known = this.last.get(r.vehicleId);
        prev = known && known.time < r.time ? { vehicleId: r.vehicleId, codes: known.codes } : null;
      }
      const codes = normalised(r.codes);
      const before = prev?.codes;
      if ([...codes].some((c) => !before || !before.has(c))) {
        const span = out.get(r.vehicleId);
        if (!span) out.set(r.vehicleId, { from: r.time, to: r.time });
        else span.to = Math.max(span.to, r.time);
      }
      prev = { vehicleId: r.vehicleId, codes };
      const known = this.last.get(r.vehicleId);
      if (!known || known.time < r.time) this.last.set(r.vehicleId, { time: r.time, codes });
    }
    return out;
  }
}
