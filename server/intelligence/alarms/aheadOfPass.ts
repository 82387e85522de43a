/**
 * What the report-time alarm paths (bitAlarms.ts, ignitionAlarms.ts, faultAlarms.ts,
 * fenceAlarms.ts, lowAlarms.ts) share: each report's stored predecessor, in the device-time order
 * the deriver reads; storing an alarm exactly as the pass will find it, so the pass keeps its id
 * and nothing is announced twice; and a batch's live reports by vehicle.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { RaisedAlarm, StoredAlarm } from './store';
import { ALARM_META, type AlarmInterval } from './types';

/** What a predecessor tells these paths. */
export interface Predecessor {
  /** The alarm word, unsigned. */
  alarm: number;
  acc: boolean;
}

/** Per report, in order, the stored position of its vehicle just before it; null when there is none. */
export async function storedPredecessors(db: Kysely<DB>, reports: ReadonlyArray<{ vehicleId: number; time: number }>): Promise<Array<Predecessor | null>> {
  const r = await sql<{ ord: number; alarm: number | null; acc: boolean | null; found: boolean }>`
    SELECT c.ord, p.alarm, p.acc, p.vehicle_id IS NOT NULL AS found
    FROM unnest(${reports.map((c) => c.vehicleId)}::int[], ${reports.map((c) => new Date(c.time).toISOString())}::timestamptz[]) WITH ORDINALITY AS c(vehicle_id, t, ord)
    LEFT JOIN LATERAL (
      SELECT vehicle_id, alarm, acc FROM position WHERE vehicle_id = c.vehicle_id AND device_time < c.t ORDER BY device_time DESC, terminal_id DESC LIMIT 1
    ) p ON true`.execute(db);
  const out: Array<Predecessor | null> = reports.map(() => null);
  for (const row of r.rows) if (row.found) out[Number(row.ord) - 1] = { alarm: row.alarm === null ? 0 : Number(row.alarm) >>> 0, acc: row.acc === true };
  return out;
}

/**
 * Stores the alarm unless the pass (or an earlier batch) stored it first; answers it with its id,
 * or null. It fired at its begin unless `firedAt` says later (a fence's dwell).
 */
export async function storeAheadOfPass(db: Kysely<DB>, alarm: Omit<StoredAlarm, 'id'> & { firedAt?: number }): Promise<StoredAlarm | null> {
  const { firedAt, ...a } = alarm;
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const row = await sql<{ id: number }>`
    INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail, fence_id)
    VALUES (${a.vehicleId}, ${a.type}, ${a.category}, ${a.level}, ${a.subject}, ${iso(a.begin)}, ${iso(a.end)}, ${iso(firedAt ?? a.begin)}, ${a.latitude}, ${a.longitude}, ${a.value},
            ${a.detail === null ? null : JSON.stringify(a.detail)}::jsonb, ${a.fenceId})
    ON CONFLICT DO NOTHING RETURNING id`.execute(db);
  return row.rows[0] ? { id: row.rows[0].id, ...a } : null;
}

/** The live reports (blind-area uploads are left to the pass) grouped by vehicle, in batch order. */
export function liveByVehicle<R extends { vehicleId: number; blind: boolean }>(reports: readonly R[]): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const r of reports) {
    if (r.blind) continue;
    const list = out.get(r.vehicleId);
    if (list) list.push(r);
    else out.set(r.vehicleId, [r]);
  }
  return out;
}

/**
 * Stores the alarms a report-time path found again by the deriver's own rules, as the pass will
 * find them: those that fired at `firedFrom` or later (what the batch completed; the earlier ones
 * were the pass's or an earlier batch's to raise). One found ended whose stored twin is still open
 * (the pass has not yet read where it ended) is closed there first, as the pass will close it: one
 * alarm of a key is open at a time, so the next could not be stored beside it. Answers those it
 * created, with the organisation path.
 */
export async function storeFoundAheadOfPass(db: Kysely<DB>, vehicleId: number, orgPath: string, found: readonly AlarmInterval[], firedFrom = -Infinity): Promise<RaisedAlarm[]> {
  const fresh = found.filter((a) => a.firedAt >= firedFrom);
  if (!fresh.length) return [];
  const ended = found.filter((a) => a.end !== null);
  if (ended.length)
    await sql`
      UPDATE alarm a SET end_time = f.end_time
      FROM unnest(${ended.map((a) => a.type)}::text[], ${ended.map((a) => a.subject)}::text[], ${ended.map((a) => new Date(a.begin).toISOString())}::timestamptz[],
                  ${ended.map((a) => new Date(a.end!).toISOString())}::timestamptz[]) AS f(type, subject, begin_time, end_time)
      WHERE a.vehicle_id = ${vehicleId} AND a.type = f.type AND a.subject = f.subject AND a.begin_time = f.begin_time AND a.end_time IS NULL`.execute(db);
  const created: RaisedAlarm[] = [];
  for (const a of fresh) {
    const meta = ALARM_META[a.type];
    const stored = await storeAheadOfPass(db, { vehicleId, type: a.type, subject: a.subject, begin: a.begin, end: a.end, firedAt: a.firedAt, level: a.level ?? meta.level, category: meta.category, latitude: a.latitude, longitude: a.longitude, value: a.value, fenceId: a.fenceId ?? null, detail: a.detail ?? null });
    if (stored) created.push({ ...stored, orgPath });
  }
  return created;
}
