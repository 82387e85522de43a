/**
 * An instant alarm a maintenance clock raises (a schedule falling due, a suspect fuel card
 * purchase): stored once per vehicle, type and subject (each type's partial unique index in the
 * migrations), where the vehicle last stood, and answered as raised for the announcer; null when it
 * was raised before.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { RaisedAlarm } from '../intelligence/alarms/store';
import { ALARM_META, type AlarmType } from '../intelligence/alarms/types';

export interface ClockAlarm {
  vehicleId: number;
  orgPath: string;
  type: AlarmType;
  subject: string;
  /** When it happened (begin = end: instant). */
  at: number;
  /** When the clock raised it. */
  firedAt: number;
  value: number | null;
  detail: Record<string, unknown>;
}

/** `onceTypes`: the types of the partial unique index that keeps this alarm once (its predicate). */
export async function raiseOnce(db: Kysely<DB>, a: ClockAlarm, onceTypes: readonly AlarmType[]): Promise<RaisedAlarm | null> {
  const meta = ALARM_META[a.type];
  const at = new Date(a.at);
  const r = await sql<{ id: number; latitude: number | null; longitude: number | null }>`
    INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail)
    SELECT ${a.vehicleId}, ${a.type}, ${meta.category}, ${meta.level}, ${a.subject}, ${at}, ${at}, ${new Date(a.firedAt)},
           (SELECT latitude FROM vehicle_state WHERE vehicle_id = ${a.vehicleId}), (SELECT longitude FROM vehicle_state WHERE vehicle_id = ${a.vehicleId}),
           ${a.value}, ${JSON.stringify(a.detail)}::jsonb
    ON CONFLICT (vehicle_id, type, subject) WHERE type IN (${sql.join(onceTypes.map((t) => sql.lit(t)))}) DO NOTHING
    RETURNING id, latitude, longitude`.execute(db);
  const row = r.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    vehicleId: a.vehicleId,
    orgPath: a.orgPath,
    type: a.type,
    subject: a.subject,
    begin: a.at,
    end: a.at,
    level: meta.level,
    category: meta.category,
    latitude: row.latitude,
    longitude: row.longitude,
    value: a.value,
    fenceId: null,
    detail: a.detail,
  };
}
