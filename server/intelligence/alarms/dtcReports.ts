/**
 * Trouble-code reports and their expert library entries, as the Fault rule reads them: the alarm
 * deriver for a window, and the report-time path (faultAlarms.ts) for a report's recent past, so
 * both find exactly the same alarms.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { OBD_DTC_SUBTYPE, type DeriveObdRecord, type DerivePosition } from '../samples';
import { OBD_COLUMNS, toObdRecord, type ObdRow } from '../windowLoad';
import { expertKey, parseDtc, positionDtcs, type DtcReport, type ExpertFaultMatch, type ParsedDtc } from './detectors/obd';
import type { AlarmLevel } from './types';

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
  const r = await sql<{
    id: number;
    name: string;
    level: AlarmLevel;
    cause: string | null;
    resolvent: string;
    maintenance_measures: string | null;
  }>`
    SELECT id, name, level, cause, resolvent, maintenance_measures FROM expert_fault
    WHERE ${d.kind === 'j1939' ? sql`spn = ${d.spn} AND fmi = ${d.fmi}` : sql`upper(dtc_code) = ${d.code}`}
    ORDER BY id LIMIT 1`.execute(db);
  const f = r.rows[0];
  return f
    ? { id: f.id, name: f.name, level: f.level, cause: f.cause, resolvent: f.resolvent, maintenanceMeasures: f.maintenance_measures }
    : null;
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

/** A vehicle's stretch of committed reports, and how far before it a predecessor is looked for. */
export interface DtcSpan {
  vehicleId: number;
  /** Epoch ms, both ends included. */
  from: number;
  to: number;
  /** Epoch ms: the earliest a report before `from` may be. */
  back: number;
}

/** A position positionDtcs reads a list from (JSON null falls through to obdF3, as `??` does). */
const HAS_DTCS = sql`COALESCE(NULLIF(jsonb_typeof(p.extras->'obd'->'dtcs'), 'null'), jsonb_typeof(p.extras->'obdF3'->'dtcs')) = 'array'`;

/**
 * Per span, in the order given: its vehicle's trouble-code reports from `from` to `to`, after the
 * last one of each source (position, OBD DTC record) in [back, from). Whether a code begins inside
 * the span depends only on the report before it, so that is all faultIntervals needs to find
 * exactly the alarms beginning there that a read of the whole look-back finds. One statement per
 * source for all spans: a batch's spans are read side by side, not vehicle after vehicle.
 */
export async function recentDtcReports(db: Kysely<DB>, spans: readonly DtcSpan[]): Promise<DtcReport[][]> {
  if (!spans.length) return [];
  const table = sql`unnest(${spans.map((s) => s.vehicleId)}::int[], ${spans.map((s) => new Date(s.back).toISOString())}::timestamptz[],
    ${spans.map((s) => new Date(s.from).toISOString())}::timestamptz[], ${spans.map((s) => new Date(s.to).toISOString())}::timestamptz[])
    WITH ORDINALITY AS w(vehicle_id, back, lo, hi, ord)`;
  const [positions, records] = await Promise.all([
    sql<{ ord: string | number; ms: number; latitude: number; longitude: number; extras: Record<string, unknown> | null }>`
      SELECT w.ord, x.* FROM ${table} CROSS JOIN LATERAL (
        (SELECT (extract(epoch FROM p.device_time) * 1000)::float8 AS ms, p.latitude, p.longitude, p.extras, p.terminal_id FROM position p
         WHERE p.vehicle_id = w.vehicle_id AND p.device_time >= w.back AND p.device_time < w.lo AND ${HAS_DTCS}
         ORDER BY p.device_time DESC, p.terminal_id DESC LIMIT 1)
        UNION ALL
        (SELECT (extract(epoch FROM p.device_time) * 1000)::float8, p.latitude, p.longitude, p.extras, p.terminal_id FROM position p
         WHERE p.vehicle_id = w.vehicle_id AND p.device_time >= w.lo AND p.device_time <= w.hi AND ${HAS_DTCS})
      ) x ORDER BY w.ord, x.ms, x.terminal_id`.execute(db),
    // The window readers' columns, so a record's codes come as a window's do.
    sql<ObdRow & { ord: string | number }>`
      SELECT w.ord, x.* FROM ${table} CROSS JOIN LATERAL (
        (SELECT ${OBD_COLUMNS}, o.terminal_id FROM obd_record o
         WHERE o.vehicle_id = w.vehicle_id AND o.subtype = ${OBD_DTC_SUBTYPE} AND o.device_time >= w.back AND o.device_time < w.lo
         ORDER BY o.device_time DESC, o.terminal_id DESC LIMIT 1)
        UNION ALL
        (SELECT ${OBD_COLUMNS}, o.terminal_id FROM obd_record o
         WHERE o.vehicle_id = w.vehicle_id AND o.subtype = ${OBD_DTC_SUBTYPE} AND o.device_time >= w.lo AND o.device_time <= w.hi)
      ) x ORDER BY w.ord, x.ms, x.terminal_id`.execute(db),
  ]);
  const positionsOf = spans.map((): DtcPosition[] => []);
  for (const p of positions.rows)
    positionsOf[Number(p.ord) - 1].push({ time: Math.round(Number(p.ms)), latitude: p.latitude, longitude: p.longitude, extras: p.extras });
  const recordsOf = spans.map((): DeriveObdRecord[] => []);
  for (const o of records.rows) recordsOf[Number(o.ord) - 1].push(toObdRecord(o));
  return spans.map((_, i) => dtcReports(positionsOf[i], recordsOf[i]));
}
