/**
 * Trouble-code reports and their expert library entries, as the Fault rule reads them: the alarm
 * deriver for a window, and the report-time path (faultAlarms.ts) for a report's recent past, so
 * both find exactly the same alarms.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { OBD_DTC_SUBTYPE, type DeriveObdRecord, type DerivePosition, type TimeRange } from '../deriver';
import { expertKey, parseDtc, positionDtcs, type DtcReport, type ExpertFaultMatch, type ParsedDtc } from './detectors/obd';
import type { DeriveLookups } from '../settingsCache';
import type { AlarmLevel } from './types';

export { OBD_DTC_SUBTYPE };

/** A position as the trouble-code rule reads it. */
export type DtcPosition = Pick<DerivePosition, 'time' | 'latitude' | 'longitude' | 'extras'>;

/**
 * Trouble-code reports of the window: positions whose OBD block lists codes, then OBD DTC records,
 * each in device-time order (faultIntervals sorts them stably by time, so this order settles ties).
 * `knownObd`: the range's OBD records, if the caller has loaded them.
 */
export async function dtcReports(db: Kysely<DB>, vehicleId: number, positions: readonly DtcPosition[], range: TimeRange, knownObd?: readonly DeriveObdRecord[]): Promise<DtcReport[]> {
  const out: DtcReport[] = [];
  for (const p of positions) {
    const codes = positionDtcs(p);
    if (codes) out.push({ time: p.time, codes, latitude: p.latitude, longitude: p.longitude });
  }
  // The range's OBD records, when the caller has them with their codes (the window readers load
  // them so): nothing to query.
  const known = knownObd?.filter((o) => o.subtype === OBD_DTC_SUBTYPE);
  if (known && known.every((o) => o.codes !== undefined)) {
    for (const o of known) out.push({ time: o.time, codes: o.codes!, latitude: o.latitude, longitude: o.longitude });
    return out;
  }
  const lo = Number.isFinite(range.from) ? new Date(range.from) : null;
  const hi = Number.isFinite(range.to) ? new Date(range.to) : null;
  const r = await sql<{ ms: number; codes: string[] | null; latitude: number | null; longitude: number | null }>`
    SELECT (extract(epoch FROM o.device_time) * 1000)::float8 AS ms, o.latitude, o.longitude,
           (SELECT array_agg(d.code ORDER BY d.seq) FROM obd_dtc d WHERE d.terminal_id = o.terminal_id AND d.device_time = o.device_time) AS codes
    FROM obd_record o
    WHERE o.vehicle_id = ${vehicleId} AND o.subtype = ${OBD_DTC_SUBTYPE} ${lo ? sql`AND o.device_time >= ${lo}` : sql``} ${hi ? sql`AND o.device_time < ${hi}` : sql``}
    ORDER BY o.device_time, o.terminal_id`.execute(db);
  for (const x of r.rows) out.push({ time: Math.round(Number(x.ms)), codes: x.codes ?? [], latitude: x.latitude, longitude: x.longitude });
  return out;
}

/** The expert fault library's entry for one code (by SPN/FMI, or by P-code), the first by id; null when none. */
export async function expertFaultFor(db: Kysely<DB>, d: ParsedDtc): Promise<ExpertFaultMatch | null> {
  if (d.kind === 'other') return null;
  const r = await sql<{ id: number; name: string; level: AlarmLevel; cause: string | null; resolvent: string; maintenance_measures: string | null }>`
    SELECT id, name, level, cause, resolvent, maintenance_measures FROM expert_fault
    WHERE ${d.kind === 'j1939' ? sql`spn = ${d.spn} AND fmi = ${d.fmi}` : sql`upper(dtc_code) = ${d.code}`}
    ORDER BY id LIMIT 1`.execute(db);
  const f = r.rows[0];
  return f ? { id: f.id, name: f.name, level: f.level, cause: f.cause, resolvent: f.resolvent, maintenanceMeasures: f.maintenance_measures } : null;
}

/**
 * The expert fault library entries for these reports' codes, through the lookups (held between
 * passes: the library is rarely edited, and a pass would otherwise read it for every window).
 */
export async function expertLookup(lookups: Pick<DeriveLookups, 'expertFault'>, reports: readonly DtcReport[]): Promise<(code: ParsedDtc) => ExpertFaultMatch | null> {
  const byKey = new Map<string, ExpertFaultMatch | null>();
  for (const code of new Set(reports.flatMap((r) => r.codes))) {
    const d = parseDtc(code);
    if (d.kind !== 'other' && !byKey.has(expertKey(d))) byKey.set(expertKey(d), await lookups.expertFault(d));
  }
  return (d) => (d.kind === 'other' ? null : (byKey.get(expertKey(d)) ?? null));
}

/**
 * The positions of a vehicle in [from, to) whose OBD block carries a trouble-code list, in the
 * order a window loads them: what dtcReports reads of a window, without the positions it skips.
 */
export async function positionsWithDtcs(db: Kysely<DB>, vehicleId: number, range: { from: number; to: number }): Promise<DtcPosition[]> {
  const r = await sql<{ ms: number; latitude: number; longitude: number; extras: Record<string, unknown> | null }>`
    SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, extras FROM position
    WHERE vehicle_id = ${vehicleId} AND device_time >= ${new Date(range.from)} AND device_time < ${new Date(range.to)}
      AND (extras->'obd'->'dtcs' IS NOT NULL OR extras->'obdF3'->'dtcs' IS NOT NULL)
    ORDER BY device_time, terminal_id`.execute(db);
  return r.rows.map((x) => ({ time: Math.round(Number(x.ms)), latitude: x.latitude, longitude: x.longitude, extras: x.extras }));
}
