/**
 * StopLongTime on the clock. From reports alone a stop is only known to be long once a report
 * arrives after the policy's duration, and a parked terminal often goes quiet. So each tick, a
 * vehicle standing now whose current stop began at least the policy's duration ago gets an open
 * StopLongTime alarm beginning where the report rule would begin it (the first standing report
 * after the last movement). The report deriver keeps that alarm while its reports still end in
 * that same stop, and closes it when the vehicle moves, as it does for a stop it raised itself.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DerivePosition } from '../deriver';
import { loadPositions } from '../windowLoad';
import { clockPolicies } from './clockPolicies';
import { MINUTE, MOVING_KMH } from './detectors/motionRules';
import { RULE_DEFAULTS, standing } from './detectors/policyRules';
import { conditionRuns } from './detectors/runs';
import type { RaisedAlarm } from './store';
import { ALARM_META, CLOCK_SOURCE, type AlarmInterval } from './types';

/**
 * Only a stop known from live reports is the clock's: reports that arrive long after they were
 * made (a blind-area or history upload still coming in) are left to the report rule, which sees
 * the stop's end when the rest of the upload arrives.
 */
const LIVE_LAG_MS = 15 * MINUTE;

/** The first report of the stop the reports end in, or null when they end moving. */
export function currentStopStart(positions: readonly DerivePosition[]): DerivePosition | null {
  const runs = conditionRuns(positions, standing);
  const last = runs[runs.length - 1];
  return last && last.clearedBy === null ? last.points[0] : null;
}

export async function stopAlarms(db: Kysely<DB>, now: number): Promise<RaisedAlarm[]> {
  const policies = await clockPolicies(db, 'StopLongTime');
  if (!policies.any) return [];
  // Standing now, and no StopLongTime open yet (raised by the reports or an earlier tick).
  const vehicles = await sql<{ vehicle_id: number; device_time: Date; path: string }>`
    SELECT s.vehicle_id, s.device_time, o.path
    FROM vehicle_state s JOIN vehicle v ON v.id = s.vehicle_id JOIN organisation o ON o.id = v.org_id
    WHERE s.speed < ${MOVING_KMH} AND s.device_time <= ${new Date(now)} AND s.received_at - s.device_time < ${`${LIVE_LAG_MS / 1000} seconds`}::interval
      AND NOT EXISTS (SELECT 1 FROM alarm a WHERE a.vehicle_id = s.vehicle_id AND a.type = 'StopLongTime' AND a.end_time IS NULL AND a.state = 'current')`.execute(
    db,
  );
  const meta = ALARM_META.StopLongTime;
  const raised: RaisedAlarm[] = [];
  for (const v of vehicles.rows) {
    const policy = policies.forPath(v.path);
    if (!policy) continue;
    const limitMs = (policy.durationMinutes ?? RULE_DEFAULTS.stopMinutes) * MINUTE;
    const last = new Date(v.device_time).getTime();
    // The last moving report bounds the stop: nothing before it is read.
    const moved = await sql<{ ms: number }>`
      SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms FROM position
      WHERE vehicle_id = ${v.vehicle_id} AND speed >= ${MOVING_KMH} AND device_time <= ${new Date(v.device_time)}
      ORDER BY device_time DESC LIMIT 1`.execute(db);
    const from = moved.rows.length ? Math.round(Number(moved.rows[0].ms)) : -Infinity;
    if (now - from < limitMs) continue;
    const start = currentStopStart(await loadPositions(db, v.vehicle_id, { from, to: last + 1 }));
    if (!start || now - start.time < limitMs) continue;
    const minutes = Math.round((now - start.time) / MINUTE);
    const detail = { sources: [CLOCK_SOURCE], limitMinutes: limitMs / MINUTE };
    const r = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail)
      VALUES (${v.vehicle_id}, 'StopLongTime', ${meta.category}, ${meta.level}, '', ${new Date(start.time)}, NULL, ${new Date(start.time + limitMs)},
              ${start.latitude}, ${start.longitude}, ${minutes}, ${JSON.stringify(detail)}::jsonb)
      ON CONFLICT DO NOTHING RETURNING id`.execute(db);
    if (r.rows[0])
      raised.push({
        id: r.rows[0].id,
        vehicleId: v.vehicle_id,
        orgPath: v.path,
        type: 'StopLongTime',
        subject: '',
        begin: start.time,
        end: null,
        level: meta.level,
        category: meta.category,
        latitude: start.latitude,
        longitude: start.longitude,
        value: minutes,
        fenceId: null,
        detail,
      });
  }
  return raised;
}

/**
 * For the report deriver: the clock's open StopLongTime of this vehicle, kept as found while the
 * reports still end in the stop it began with (they are too short to raise it themselves). One
 * the reports no longer support (a late upload shows movement) is not returned, so it is removed.
 */
export async function clockStopsKept(
  db: Kysely<DB>,
  vehicleId: number,
  positions: readonly DerivePosition[],
  found: readonly AlarmInterval[],
): Promise<AlarmInterval[]> {
  const open = await sql<{
    begin: Date;
    fired_at: Date;
    latitude: number | null;
    longitude: number | null;
    value: number | null;
    detail: unknown;
  }>`
    SELECT begin_time AS begin, fired_at, latitude, longitude, value, detail FROM alarm
    WHERE vehicle_id = ${vehicleId} AND type = 'StopLongTime' AND end_time IS NULL AND state = 'current' AND detail -> 'sources' @> ${JSON.stringify([CLOCK_SOURCE])}::jsonb`.execute(
    db,
  );
  const start = currentStopStart(positions);
  const out: AlarmInterval[] = [];
  for (const a of open.rows) {
    const begin = new Date(a.begin).getTime();
    if (found.some((f) => f.type === 'StopLongTime' && f.begin === begin) || start?.time !== begin) continue;
    const detail = (typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as Record<string, unknown>;
    out.push({
      type: 'StopLongTime',
      subject: '',
      begin,
      end: null,
      firedAt: new Date(a.fired_at).getTime(),
      latitude: a.latitude,
      longitude: a.longitude,
      value: a.value,
      detail,
    });
  }
  return out;
}
