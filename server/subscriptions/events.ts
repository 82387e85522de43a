/**
 * The events subscriptions carry, built from what the product already announces: an alarm raised
 * by the alarm engine ('alarm.raised': alarms, fence entries and exits, maintenance due) and the
 * positions the writer committed ('positions.stored').
 * Each event has a key unique to it (the outbox keeps it once per subscription), the vehicle it
 * is ordered by, and the JSON body every subscriber receives.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { StoredPositions } from '../platform/telemetry';

export const EVENT_TYPES = ['position', 'alarm', 'geofence', 'maintenance'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Maintenance due and overdue, announced as alarms by the maintenance clock. */
const MAINTENANCE_ALARMS: ReadonlySet<string> = new Set(['MaintenanceDue', 'MaintenanceOverdue']);

/** An alarm's event type: fence entries and exits are 'geofence', maintenance due and overdue 'maintenance'. */
export const alarmEventType = (type: string, category: string): EventType =>
  MAINTENANCE_ALARMS.has(type) ? 'maintenance' : category === 'fence' ? 'geofence' : 'alarm';

export interface OutboxEvent {
  /** Unique to the event: 'alarm:12', 'position:3:1733550000000' (terminal and device time). */
  key: string;
  type: EventType;
  vehicleId: number;
  /** Organisation path of the vehicle, matched against each subscription's subtree. */
  orgPath: string;
  time: Date;
  body: string;
}

const bodyOf = (key: string, type: EventType, time: Date, vehicleId: number, licence: string | null, data: object): string =>
  JSON.stringify({ event: type, id: key, occurredAt: time.toISOString(), vehicleId, licence, data });

/** The alarms (by id) as events; an alarm a later pass removed before it was read is left out. */
export async function alarmEvents(db: Kysely<DB>, ids: readonly number[]): Promise<OutboxEvent[]> {
  if (!ids.length) return [];
  const r = await sql<{
    id: number;
    vehicleId: number;
    licence: string;
    type: string;
    category: string;
    level: string;
    begin: Date;
    end: Date | null;
    latitude: number | null;
    longitude: number | null;
    value: number | null;
    fenceId: number | null;
    detail: unknown;
    orgPath: string;
  }>`
    SELECT a.id, a.vehicle_id AS "vehicleId", v.licence, a.type, a.category, a.level, a.begin_time AS begin, a.end_time AS "end",
           a.latitude, a.longitude, a.value, a.fence_id AS "fenceId", a.detail, o.path AS "orgPath"
    FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id JOIN organisation o ON o.id = v.org_id
    WHERE a.id = ANY (${[...ids]}::int[]) ORDER BY a.begin_time, a.id`.execute(db);
  return r.rows.map(({ orgPath, licence, ...a }) => {
    const time = new Date(a.begin);
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    const data = { ...a, begin: time.toISOString(), end: a.end === null ? null : new Date(a.end).toISOString(), detail };
    const key = `alarm:${a.id}`;
    const type = alarmEventType(a.type, a.category);
    return { key, type, vehicleId: a.vehicleId, orgPath, time, body: bodyOf(key, type, time, a.vehicleId, licence, data) };
  });
}

/** The newly stored positions of vehicles as events (a terminal fitted to no vehicle has none). */
export function positionEvents(batch: StoredPositions): OutboxEvent[] {
  const out: OutboxEvent[] = [];
  for (const { source, record } of batch.inserted) {
    if (record.vehicleId === null || source.vehicleOrgPath === null) continue;
    const time = new Date(record.deviceTime);
    const key = `position:${record.terminalId}:${record.deviceTime}`;
    const { terminalId: _t, vehicleId, deviceTime: _d, ...fields } = record;
    const data = { ...fields, terminalNo: source.terminalNo, deviceTime: time.toISOString() };
    out.push({
      key,
      type: 'position',
      vehicleId,
      orgPath: source.vehicleOrgPath,
      time,
      body: bodyOf(key, 'position', time, vehicleId, source.licence, data),
    });
  }
  return out;
}
