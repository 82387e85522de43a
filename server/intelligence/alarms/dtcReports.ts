/**
 * Trouble-code reports and their expert library entries, as the Fault rule reads them in the alarm
 * deriver's window.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { OBD_DTC_SUBTYPE, type DeriveObdRecord, type DerivePosition } from '../samples';
import { expertKey, parseDtc, positionDtcs, type DtcReport, type ExpertFaultMatch, type ParsedDtc } from './detectors/obd';

/** A position as the trouble-code rule reads it. */
export type DtcPosition = Pick<DerivePosition, 'time' | 'latitude' | 'longitude' | 'extras'>;

/**
 * Trouble-code reports of the window: positions whose OBD block lists codes, then OBD DTC records
 * (with the codes the window readers load), each in device-time order (faultIntervals sorts them
 * stably by time, so this order settles ties).
 */
export function dtcReports(positions: readonly DtcPosition[], obdRecords: readonly DeriveObdRecord[]): DtcReport[] {
  const out: DtcReport[] = [];
  for (const p of positions) {
    const codes = positionDtcs(p);
    if (codes) out.push({ time: p.time, codes, latitude: p.latitude, longitude: p.longitude });
  }
  for (const o of obdRecords)
    if (o.subtype === OBD_DTC_SUBTYPE) out.push({ time: o.time, codes: o.codes ?? [], latitude: o.latitude, longitude: o.longitude });
  return out;
}

/** The expert fault library's entry for one code (by SPN/FMI, or by P-code), the first by id; null when none. */
export async function expertFaultFor(db: Kysely<DB>, d: ParsedDtc): Promise<ExpertFaultMatch | null> {
  if (d.kind === 'other') return null;
  const r = await sql<ExpertFaultMatch>`
    SELECT id, name, level, cause, resolvent, maintenance_measures AS "maintenanceMeasures" FROM expert_fault
    WHERE ${d.kind === 'j1939' ? sql`spn = ${d.spn} AND fmi = ${d.fmi}` : sql`upper(dtc_code) = ${d.code}`}
    ORDER BY id LIMIT 1`.execute(db);
  return r.rows[0] ?? null;
}

/** Where the library's entry for a code is read (the pass's lookups: settingsCache.ts). */
export interface ExpertFaultSource {
  expertFault(code: ParsedDtc): Promise<ExpertFaultMatch | null>;
}

/**
 * The expert fault library entries for these reports' codes, through the lookups (held between
 * passes: the library is rarely edited, and a pass would otherwise read it for every window).
 */
export async function expertLookup(
  lookups: ExpertFaultSource,
  reports: readonly DtcReport[],
): Promise<(code: ParsedDtc) => ExpertFaultMatch | null> {
  const byKey = new Map<string, ExpertFaultMatch | null>();
  for (const code of new Set(reports.flatMap((r) => r.codes))) {
    const d = parseDtc(code);
    if (d.kind !== 'other' && !byKey.has(expertKey(d))) byKey.set(expertKey(d), await lookups.expertFault(d));
  }
  return (d) => (d.kind === 'other' ? null : (byKey.get(expertKey(d)) ?? null));
}
