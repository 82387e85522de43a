/**
 * The events subscriptions carry, built from what the product already announces: an alarm raised
 * by the alarm engine ('alarm.raised': alarms, fence entries and exits, maintenance due), the
 * positions the writer committed ('positions.stored'), the trips a derivation pass closed
 * ('trips.closed'), a downlink command's final state ('command.finished') and a media upload kept
 * ('media.stored').
 * Each event has a key unique to it (the outbox keeps it once per subscription), the vehicle it
 * is ordered by, and the JSON body every subscriber receives.
 */

import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { attributeSpans } from '../drivers/attribution';
import type { DB } from '../platform/db/tables';
import type { ClosedTrip, CommandFinished, MediaStored, StoredPositions } from '../platform/telemetry';
import { commandView } from '../telematics/commands/service';
import { MEDIA_COLUMNS, mediaView, type MediaRow } from '../telematics/media/mediaView';

import type { EventType } from '../../schemas/kit/subscriptionEvents';

export { EVENT_TYPES, type EventType } from '../../schemas/kit/subscriptionEvents';

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

/** The vehicle an event belongs to, as its body and the outbox's scoping need it. */
interface EventVehicle {
  vehicleId: number;
  licence: string | null;
  orgPath: string;
}

const eventOf = (key: string, type: EventType, time: Date, v: EventVehicle, data: object): OutboxEvent => ({
  key,
  type,
  vehicleId: v.vehicleId,
  orgPath: v.orgPath,
  time,
  body: bodyOf(key, type, time, v.vehicleId, v.licence, data),
});

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
    return eventOf(key, alarmEventType(a.type, a.category), time, { vehicleId: a.vehicleId, licence, orgPath }, data);
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
    out.push(eventOf(key, 'position', time, { vehicleId, licence: source.licence, orgPath: source.vehicleOrgPath }, data));
  }
  return out;
}

/** The licence and organisation path of vehicles (a vehicle since removed is left out). */
async function vehiclesOf(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, { licence: string; orgPath: string }>> {
  const r = await sql<{ id: number; licence: string; orgPath: string }>`
    SELECT v.id, v.licence, o.path AS "orgPath" FROM vehicle v JOIN organisation o ON o.id = v.org_id
    WHERE v.id = ANY (${[...new Set(ids)]}::int[])`.execute(db);
  return new Map(r.rows.map((v) => [v.id, v]));
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Closed trips as events, each with its driver (card sessions, null when unassigned). A trip a late
 * report changes comes again with the same `begin` and a new id (its key hashes what it says): a
 * receiver keeps the last one per vehicle and begin.
 */
export async function tripEvents(db: Kysely<DB>, trips: readonly ClosedTrip[]): Promise<OutboxEvent[]> {
  if (!trips.length) return [];
  const [vehicles, drivers] = await Promise.all([
    vehiclesOf(
      db,
      trips.map((t) => t.vehicleId),
    ),
    attributeSpans(db, trips),
  ]);
  const out: OutboxEvent[] = [];
  trips.forEach((t, i) => {
    const v = vehicles.get(t.vehicleId);
    if (!v) return;
    const { vehicleId, begin, end, ...figures } = t;
    const data = { begin: iso(begin), end: iso(end), ...figures, driver: drivers[i] };
    const digest = createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 12);
    const key = `trip:${vehicleId}:${begin}:${digest}`;
    out.push(eventOf(key, 'trip', new Date(end), { vehicleId, ...v }, data));
  });
  return out;
}

/** A finished downlink command as an event, when its terminal is fitted to a vehicle (as the command routes show it). */
export async function commandEvents(db: Kysely<DB>, finished: CommandFinished): Promise<OutboxEvent[]> {
  const r = await sql<Parameters<typeof commandView>[0] & { vehicleId: number; licence: string; orgPath: string; terminalNo: string }>`
    SELECT c.*, v.id AS "vehicleId", v.licence, o.path AS "orgPath", t.terminal_no AS "terminalNo"
    FROM terminal_command c JOIN terminal t ON t.id = c.terminal_id JOIN vehicle v ON v.terminal_id = t.id
    JOIN organisation o ON o.id = v.org_id WHERE c.id = ${finished.commandId}`.execute(db);
  return r.rows.map((row) => {
    const data = { ...commandView(row), terminalNo: row.terminalNo };
    const key = `command:${row.id}`;
    return eventOf(key, 'command-result', new Date(data.answeredAt ?? data.createdAt), row, data);
  });
}

/** A kept media upload of a vehicle's terminal as an event (its content at `data.url`, scoped like every media route). */
export async function mediaEvents(db: Kysely<DB>, stored: MediaStored): Promise<OutboxEvent[]> {
  if (stored.vehicleId === null) return [];
  const r = await sql<MediaRow & { vehicleId: number; licence: string; orgPath: string }>`
    SELECT ${sql.raw(MEDIA_COLUMNS)}, v.id AS "vehicleId", v.licence, o.path AS "orgPath"
    FROM media m JOIN vehicle v ON v.id = m.vehicle_id JOIN organisation o ON o.id = v.org_id WHERE m.id = ${stored.mediaId}`.execute(db);
  return r.rows.map((row) => {
    const data = mediaView(row);
    const key = `media:${data.id}`;
    return eventOf(key, 'media', new Date(data.takenAt ?? data.receivedAt), row, data);
  });
}
