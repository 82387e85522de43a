import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { firstAtOrAfter, type DeriveObdRecord, type DerivePosition, type TimeRange } from '../deriver';
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
  read: { positions: readonly DerivePosition[]; obdRecords: readonly DeriveObdRecord[] };
  dirty: TimeRange | undefined;
}

/**
 * Of the alarms a pass stored anew, those to announce (console, webhooks, SMS): each one decided by
 * a report or OBD record no earlier pass had. The deciding report is the first at or after the
 * moment the alarm fired. One in the window's dirty range is new. One before it was there for an
 * earlier pass to find, and the alarm is new only because the settings changed since (a policy
 * added or lowered, a fence drawn, which rebuilds the window's history): stored and listed, but not
 * pushed as though it had just happened, or an edited policy would replay hours of a vehicle's
 * past as fresh alarms. Unless that report was stored after the vehicle's last pass began: a pass
 * reads every committed report of its window, also those whose marks the next pass takes (stored
 * a moment before, or a blind-area upload under way), and that next pass finds the alarm stored
 * already. Without a dirty range (a rebuild asked for by hand) every one is announced.
 * Returns the announced per window, in order; one statement for the pass when any is in doubt.
 */
export async function newlyDecided(trx: Kysely<DB>, windows: readonly StoredOfWindow[]): Promise<StoredAlarm[][]> {
  const out: StoredAlarm[][] = windows.map(() => []);
  const doubt: Array<{ w: number; alarm: StoredAlarm; at: number; obd: boolean }> = [];
  windows.forEach(({ stored, found, read, dirty }, w) => {
    if (!dirty) {
      out[w].push(...stored);
      return;
    }
    if (!stored.length) return;
    // One vehicle's alarms: keyed without it.
    const firedAt = new Map(found.map((a) => [alarmKey(0, a.type, a.subject, a.begin), a.firedAt]));
    for (const alarm of stored) {
      const at = firedAt.get(alarmKey(0, alarm.type, alarm.subject, alarm.begin)) ?? alarm.begin;
      const position = firstFrom(read.positions, at);
      const record = firstFrom(read.obdRecords, at);
      const decided = Math.min(position, record);
      if (decided >= dirty.from) out[w].push(alarm);
      else doubt.push({ w, alarm, at: decided, obd: record < position });
    }
  });
  if (!doubt.length) return out;
  const vehicleIds = doubt.map((d) => windows[d.w].vehicleId);
  const r = await sql<{ k: number }>`
    SELECT i.k FROM unnest(${doubt.map((_, k) => k)}::int[], ${vehicleIds}::int[], ${doubt.map((d) => new Date(d.at).toISOString())}::timestamptz[], ${doubt.map((d) => d.obd)}::boolean[]) AS i(k, vehicle_id, t, obd)
    LEFT JOIN derive_state s ON s.vehicle_id = i.vehicle_id
    WHERE s.derived_at IS NULL
      OR (NOT i.obd AND EXISTS (SELECT 1 FROM position p WHERE p.vehicle_id = i.vehicle_id AND p.device_time = i.t AND p.received_at > s.derived_at))
      OR (i.obd AND EXISTS (SELECT 1 FROM obd_record o WHERE o.vehicle_id = i.vehicle_id AND o.device_time = i.t AND o.received_at > s.derived_at))`.execute(
    trx,
  );
  for (const { k } of r.rows) out[doubt[k].w].push(doubt[k].alarm);
  return out;
}
