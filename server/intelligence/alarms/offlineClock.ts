/**
 * OfflineLongTime runs on the clock, not on reports (a silent terminal sends nothing to react to):
 * a vehicle whose last report arrived at least its policy's duration ago gets an open
 * OfflineLongTime alarm that began at that last report. The next report closes it (the alarm
 * deriver does, when it derives that report).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { clockPolicies } from './clockPolicies';
import { MINUTE } from './detectors/motionRules';
import type { RaisedAlarm } from './store';
import { ALARM_META } from './types';

/** When the policy leaves the duration empty. */
export const DEFAULT_OFFLINE_MINUTES = 24 * 60;

export async function offlineAlarms(db: Kysely<DB>, now: number): Promise<RaisedAlarm[]> {
  const policies = await clockPolicies(db, 'OfflineLongTime');
  if (!policies.any) return [];
  const vehicles = await sql<{ vehicle_id: number; received_at: Date; latitude: number; longitude: number; path: string }>`
    SELECT s.vehicle_id, s.received_at, s.latitude, s.longitude, o.path
    FROM vehicle_state s JOIN vehicle v ON v.id = s.vehicle_id JOIN organisation o ON o.id = v.org_id
    WHERE s.received_at <= ${new Date(now)}`.execute(db);
  const raised: RaisedAlarm[] = [];
  const meta = ALARM_META.OfflineLongTime;
  for (const v of vehicles.rows) {
    const policy = policies.forPath(v.path);
    if (!policy) continue;
    const limitMs = (policy.durationMinutes ?? DEFAULT_OFFLINE_MINUTES) * MINUTE;
    const last = new Date(v.received_at).getTime();
    if (now - last < limitMs) continue;
    const hours = Math.round(((now - last) / 3_600_000) * 10) / 10;
    const r = await sql<{ id: number; inserted: boolean }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail)
      SELECT ${v.vehicle_id}, 'OfflineLongTime', ${meta.category}, ${meta.level}, '', ${new Date(last)}, NULL, ${new Date(last + limitMs)},
             ${v.latitude}, ${v.longitude}, ${hours}, ${JSON.stringify({ limitMinutes: limitMs / MINUTE })}::jsonb
      WHERE NOT EXISTS (SELECT 1 FROM alarm WHERE vehicle_id = ${v.vehicle_id} AND type = 'OfflineLongTime' AND begin_time = ${new Date(last)} AND end_time IS NOT NULL)
      ON CONFLICT (vehicle_id, type, subject) WHERE end_time IS NULL AND state = 'current' DO UPDATE SET value = excluded.value
      RETURNING id, (xmax = 0) AS inserted`.execute(db);
    const row = r.rows[0];
    if (row?.inserted)
      raised.push({
        id: row.id,
        vehicleId: v.vehicle_id,
        orgPath: v.path,
        type: 'OfflineLongTime',
        subject: '',
        begin: last,
        end: null,
        level: meta.level,
        category: meta.category,
        latitude: v.latitude,
        longitude: v.longitude,
        value: hours,
        fenceId: null,
        detail: { limitMinutes: limitMs / MINUTE },
      });
  }
  return raised;
}
