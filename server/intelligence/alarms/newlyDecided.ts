import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { firstAtOrAfter, type DeriveObdRecord, type DerivePosition, type TimeRange } from '../deriver';
import { judgedFromSql } from '../settingsCache';
import { alarmKey, type StoredAlarm } from './store';
import type { AlarmInterval } from './types';

/** The time of the first of these (in time order) at or after `at`; Infinity when none is. */
function firstFrom(items: ReadonlyArray<{ time: number }>, at: number): number {
  return items[firstAtOrAfter(items, at)]?.time ?? Infinity;
}

/** What one window of a pass stored anew, and what it read (the alarms' deciding reports are among them). */
export interface StoredOfWindow {
  vehicleId: number;
  stored: readonly StoredAlarm[];
  found: readonly AlarmInterval[];
  read: { positions: readonly DerivePosition[]; obdRecords: readonly DeriveObdRecord[]; before: DerivePosition | null };
  dirty: TimeRange | undefined;
}

/**
 * Of these alarms (each with the reports it was decided from, from the report before its begin to
 * its deciding one), those found in history: every one of those reports (positions and OBD
 * records) was seen by the last pass of the vehicle before the alarms' settings changed (its marks
 * snapshot, `derive_state.judged_from`; the one before this pass when they changed since the last,
 * by `alarmSettings`), and so was judged by the old settings. A transaction id is 32 bits in
 * `xmin`: its full value is the newest at or before the current snapshot's xmax with those bits, as
 * every row read was committed before it.
 */
async function historyOf(
  trx: Kysely<DB>,
  spans: ReadonlyArray<{ id: number; vehicleId: number; from: number; to: number }>,
  alarmSettings: string | undefined,
): Promise<Set<number>> {
  if (!spans.length) return new Set();
  const iso = (t: number) => new Date(t).toISOString();
  const unseen = (xmin: RawBuilder<unknown>) =>
    sql`NOT pg_visible_in_snapshot((n.xmax - ((n.xmax - ${xmin}::text::bigint) & 4294967295))::text::xid8, j.judged)`;
  const r = await sql<{ id: number }>`
    WITH n AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax)
    SELECT s.id FROM unnest(${spans.map((s) => s.id)}::int[], ${spans.map((s) => s.vehicleId)}::int[],
      ${spans.map((s) => iso(s.from))}::timestamptz[], ${spans.map((s) => iso(s.to))}::timestamptz[]) AS s(id, vehicle_id, f, t)
    CROSS JOIN n
    JOIN derive_state d ON d.vehicle_id = s.vehicle_id
    CROSS JOIN LATERAL (SELECT ${judgedFromSql(alarmSettings)} AS judged) j
    WHERE j.judged IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM position p WHERE p.vehicle_id = s.vehicle_id AND p.device_time BETWEEN s.f AND s.t AND ${unseen(sql`p.xmin`)})
      AND NOT EXISTS (SELECT 1 FROM obd_record o WHERE o.vehicle_id = s.vehicle_id AND o.device_time BETWEEN s.f AND s.t AND ${unseen(sql`o.xmin`)})`.execute(
    trx,
  );
  return new Set(r.rows.map((x) => x.id));
}

/**
 * Of the alarms a pass's windows stored anew, those to announce (console, webhooks, SMS), each
 * exactly once. The deciding report is the first at or after the moment the alarm fired; one in
 * the window's dirty range (the marks the pass took) is new. One before it is new too, unless it
 * was found in history only because the alarms' settings changed (a policy added or lowered, a
 * fence drawn, which rebuilds the window's history): every report it was decided from was judged
 * by the settings before (historyOf), and ended. Such an alarm is stored and listed but not announced
 * (`alarm.announced` false), or an edited policy would replay hours of a vehicle's past as fresh
 * alarms; one still open is announced, as its vehicle breaks the new settings now. Anything else found before the dirty range is new data's doing: a report read before its
 * mark was written (stored a moment before, a blind-area upload under way), or one whose rule reads
 * ahead of the moment it fires (a drain's standing levels). Without a dirty range (a rebuild asked
 * for by hand) every one is announced. Returns the announced per window, in order; two statements
 * for the pass at most: which are history, and their flags set.
 */
export async function newlyDecided(
  trx: Kysely<DB>,
  windows: readonly StoredOfWindow[],
  alarmSettings: string | undefined,
): Promise<StoredAlarm[][]> {
  const unsure: Array<{ id: number; vehicleId: number; from: number; to: number }> = [];
  for (const { vehicleId, stored, found, read, dirty } of windows) {
    if (!dirty || !stored.length) continue;
    // One vehicle's alarms: keyed without it.
    const firedAt = new Map(found.map((a) => [alarmKey(0, a.type, a.subject, a.begin), a.firedAt]));
    for (const alarm of stored) {
      const at = firedAt.get(alarmKey(0, alarm.type, alarm.subject, alarm.begin)) ?? alarm.begin;
      const decided = Math.min(firstFrom(read.positions, at), firstFrom(read.obdRecords, at));
      if (decided >= dirty.from || alarm.end === null) continue; // still open: the vehicle breaks the settings now
      // From the report before its begin (an ignition's had the ACC off).
      const first = firstAtOrAfter(read.positions, alarm.begin);
      const before = first > 0 ? read.positions[first - 1] : read.before;
      unsure.push({ id: alarm.id, vehicleId, from: before && before.time < alarm.begin ? before.time : alarm.begin, to: decided });
    }
  }
  const history = await historyOf(trx, unsure, alarmSettings);
  if (history.size) await sql`UPDATE alarm SET announced = false WHERE id = ANY(${[...history]}::int[])`.execute(trx);
  return windows.map((w) => w.stored.filter((a) => !history.has(a.id)));
}
