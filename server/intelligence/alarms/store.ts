/**
 * The alarm lifecycle in the database: a vehicle's alarms from a window start on are replaced by
 * what the detectors found, in one transaction. An alarm that is found again (same vehicle, type,
 * subject and begin) keeps its id and its handling; one no longer found is removed; clock-driven
 * types are left to the clock.
 */

import type { DB } from '../../platform/db/tables';
import { sql, type Kysely } from 'kysely';
import { ALARM_META, CLOCK_TYPES, type AlarmInterval, type AlarmType } from './types';

/** An alarm row the rebuild created (not one it found again). */
export interface StoredAlarm {
  id: number;
  vehicleId: number;
  type: AlarmType;
  subject: string;
  begin: number;
  end: number | null;
  level: string;
  category: string;
  latitude: number | null;
  longitude: number | null;
  value: number | null;
  fenceId: number | null;
  detail: Record<string, unknown> | null;
}

/** A new alarm with its vehicle's organisation path: what the engine announces (bus, notifications). */
export interface RaisedAlarm extends StoredAlarm {
  orgPath: string;
}

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

/**
 * The earliest begin of this vehicle's report-driven alarms that are still open at `at` or end
 * after it: a rebuild from `at` must start there, so no alarm is cut in two.
 */
export async function windowStart(db: Kysely<DB>, vehicleId: number, at: number): Promise<number> {
  const r = await sql<{ begin: Date | null }>`
    SELECT min(begin_time) AS begin FROM alarm
    WHERE vehicle_id = ${vehicleId} AND begin_time < ${iso(at)} AND (end_time IS NULL OR end_time >= ${iso(at)})
      AND type <> ALL (${[...CLOCK_TYPES]}::text[])`.execute(db);
  const b = r.rows[0]?.begin;
  return b ? Math.min(at, new Date(b).getTime()) : at;
}

/**
 * Replaces the vehicle's report-driven alarms beginning in [from, to) with `found` (merged; those
 * beginning outside are ignored). Returns the alarms that did not exist before. Runs in the
 * caller's transaction when given one.
 */
export async function replaceAlarms(db: Kysely<DB>, vehicleId: number, from: number, found: readonly AlarmInterval[], to = Infinity): Promise<StoredAlarm[]> {
  const rows = found.filter((a) => a.begin >= from && a.begin < to && !CLOCK_TYPES.has(a.type));
  // Closing an open alarm must come before opening the next of its key (one open per key).
  rows.sort((a, b) => (a.end === null ? 1 : 0) - (b.end === null ? 1 : 0) || a.begin - b.begin);
  const run = async (trx: Kysely<DB>) => {
    await sql`
      DELETE FROM alarm a
      WHERE a.vehicle_id = ${vehicleId} ${Number.isFinite(from) ? sql`AND a.begin_time >= ${iso(from)}` : sql``} ${Number.isFinite(to) ? sql`AND a.begin_time < ${iso(to)}` : sql``} AND a.type <> ALL (${[...CLOCK_TYPES]}::text[])
        AND NOT EXISTS (
          SELECT 1 FROM unnest(${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.subject)}::text[], ${rows.map((r) => iso(r.begin))}::timestamptz[]) AS k(type, subject, begin_time)
          WHERE k.type = a.type AND k.subject = a.subject AND k.begin_time = a.begin_time)`.execute(trx);
    const raised: StoredAlarm[] = [];
    for (const a of rows) {
      const meta = ALARM_META[a.type];
      const level = a.level ?? meta.level;
      const detail = a.detail && Object.keys(a.detail).length ? JSON.stringify(a.detail) : null;
      const r = await sql<{ id: number; inserted: boolean }>`
        INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail, fence_id)
        VALUES (${vehicleId}, ${a.type}, ${meta.category}, ${level}, ${a.subject}, ${iso(a.begin)}, ${iso(a.end)}, ${iso(a.firedAt)},
                ${a.latitude}, ${a.longitude}, ${a.value}, ${detail}::jsonb, ${a.fenceId ?? null})
        ON CONFLICT (vehicle_id, type, subject, begin_time) DO UPDATE SET
          end_time = excluded.end_time, fired_at = excluded.fired_at, level = excluded.level, category = excluded.category,
          latitude = excluded.latitude, longitude = excluded.longitude, value = excluded.value, detail = excluded.detail,
          fence_id = excluded.fence_id
        RETURNING id, (xmax = 0) AS inserted`.execute(trx);
      const row = r.rows[0];
      if (row.inserted)
        raised.push({
          id: row.id,
          vehicleId,
          type: a.type,
          subject: a.subject,
          begin: a.begin,
          end: a.end,
          level,
          category: meta.category,
          latitude: a.latitude,
          longitude: a.longitude,
          value: a.value,
          fenceId: a.fenceId ?? null,
          detail: a.detail ?? null,
        });
    }
    return raised;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * The latest end of this vehicle's report-driven alarms that began before `at` and last beyond it
 * (Infinity when one is still open): a rebuild up to `at` must run to there.
 */
export async function windowEnd(db: Kysely<DB>, vehicleId: number, at: number): Promise<number> {
  if (!Number.isFinite(at)) return at;
  const r = await sql<{ open: boolean; end: Date | null }>`
    SELECT bool_or(end_time IS NULL) AS open, max(end_time) AS "end" FROM alarm
    WHERE vehicle_id = ${vehicleId} AND begin_time < ${iso(at)} AND (end_time IS NULL OR end_time > ${iso(at)})
      AND type <> ALL (${[...CLOCK_TYPES]}::text[])`.execute(db);
  const row = r.rows[0];
  if (row?.open) return Infinity;
  return row?.end ? Math.max(at, new Date(row.end).getTime()) : at;
}

/**
 * Closes the vehicle's open clock-driven alarms once a report has come in after they began (times
 * compared to the millisecond: the alarm's begin came through JavaScript).
 */
export async function closeClockAlarms(db: Kysely<DB>, vehicleId: number): Promise<void> {
  await sql`
    UPDATE alarm a SET end_time = GREATEST(a.begin_time, r.first)
    FROM (
      SELECT a2.id, (SELECT min(p.received_at) FROM position p
                     WHERE p.vehicle_id = a2.vehicle_id AND date_trunc('milliseconds', p.received_at) > a2.begin_time
                       AND p.device_time > a2.begin_time - interval '7 days') AS first
      FROM alarm a2 WHERE a2.vehicle_id = ${vehicleId} AND a2.end_time IS NULL AND a2.type = ANY (${[...CLOCK_TYPES]}::text[])
    ) r
    WHERE a.id = r.id AND r.first IS NOT NULL`.execute(db);
}
