/**
 * Which schedules apply to which vehicles, and what each vehicle used since its last service under
 * each. A schedule names one vehicle, or the vehicles of one model, or none (every vehicle); either
 * way only vehicles in its organisation's subtree (inherited down the tree). The last service is
 * the vehicle's newest done work order of the schedule, else the schedule's start.
 *
 * Kilometres: the odometer (the terminal's mileage reading) minus the odometer at that service when
 * both are known, else the ledger's daily kilometres after the service day. Engine hours: the
 * ledger's ACC-on time (driving and idling) after the service day. Days: calendar days since it.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import { dueStatus, type DueStatus, type ScheduleIntervals } from './dueStatus';

export interface ScheduleUsage extends ScheduleIntervals {
  scheduleId: number;
  scheduleName: string;
  vehicleId: number;
  licence: string;
  orgId: number;
  orgPath: string;
  /** The local day counting starts from (the last service, else the schedule's start). */
  baseDay: string;
  /** The done work order that was the last service; null when none yet. */
  lastWorkOrderId: number | null;
  odometerKm: number | null;
  usedKm: number | null;
  usedHours: number | null;
  usedDays: number;
  status: DueStatus;
  /** The calendar day the days trigger falls due (null without one). */
  dueDay: string | null;
}

export interface UsageFilter {
  /** A condition on the vehicle alias `v` (the caller's scope, one vehicle, …). */
  vehicles?: RawBuilder<unknown>;
  scheduleId?: number;
}

interface Row {
  schedule_id: number;
  schedule_name: string;
  vehicle_id: number;
  licence: string;
  org_id: number;
  org_path: string;
  interval_km: number | null;
  interval_hours: number | null;
  interval_days: number | null;
  warn_km: number | null;
  warn_hours: number | null;
  warn_days: number | null;
  base_day: string;
  due_day: string | null;
  last_work_order_id: number | null;
  odometer_km: number | null;
  used_km: number | null;
  used_hours: number | null;
  used_days: number;
}

/** Every enabled schedule × vehicle it applies to, with its usage and status on `today` (a local day). */
export async function scheduleUsage(db: Kysely<DB>, today: string, timeZone: string, filter: UsageFilter = {}): Promise<ScheduleUsage[]> {
  const r = await sql<Row>`
    WITH applies AS (
      SELECT s.*, v.id AS v_id, v.licence, v.org_id AS v_org_id, vo.path AS v_path
      FROM maintenance_schedule s
      JOIN organisation so ON so.id = s.org_id
      JOIN vehicle v ON v.org_id = ANY(ARRAY(SELECT id FROM organisation WHERE path LIKE so.path || '%'))
      JOIN organisation vo ON vo.id = v.org_id
      LEFT JOIN vehicle_model m ON m.id = s.vehicle_model_id
      WHERE s.enabled IS NOT FALSE
        AND (s.vehicle_id IS NULL OR s.vehicle_id = v.id)
        AND (s.vehicle_model_id IS NULL OR lower(v.model) = lower(m.model_name))
        AND ${filter.vehicles ?? sql`TRUE`}
        AND ${filter.scheduleId ? sql`s.id = ${filter.scheduleId}` : sql`TRUE`}
    ), based AS (
      SELECT a.*, w.id AS wo_id, w.service_odometer_km AS wo_odometer,
             COALESCE(w.service_date, a.start_date, (a.created_at AT TIME ZONE ${timeZone})::date) AS base_day
      FROM applies a
      LEFT JOIN LATERAL (
        SELECT id, service_odometer_km, service_date FROM work_order
        WHERE schedule_id = a.id AND vehicle_id = a.v_id AND status = 'done' AND service_date IS NOT NULL
        ORDER BY service_date DESC, id DESC LIMIT 1
      ) w ON TRUE
    )
    SELECT b.id AS schedule_id, b.name AS schedule_name, b.v_id AS vehicle_id, b.licence, b.v_org_id AS org_id, b.v_path AS org_path,
           b.interval_km, b.interval_hours, b.interval_days, b.warn_km, b.warn_hours, b.warn_days,
           to_char(b.base_day, 'YYYY-MM-DD') AS base_day, b.wo_id AS last_work_order_id,
           CASE WHEN b.interval_days IS NULL THEN NULL ELSE to_char(b.base_day + b.interval_days, 'YYYY-MM-DD') END AS due_day,
           st.mileage_km AS odometer_km,
           CASE WHEN st.mileage_km IS NOT NULL AND COALESCE(b.wo_odometer, CASE WHEN b.wo_id IS NULL THEN b.start_odometer_km END) IS NOT NULL
                THEN st.mileage_km - COALESCE(b.wo_odometer, CASE WHEN b.wo_id IS NULL THEN b.start_odometer_km END)
                ELSE l.km END AS used_km,
           l.hours AS used_hours,
           (${today}::date - b.base_day) AS used_days
    FROM based b
    LEFT JOIN vehicle_state st ON st.vehicle_id = b.v_id
    LEFT JOIN LATERAL (
      SELECT COALESCE(sum(mileage_km), 0)::float8 AS km, (COALESCE(sum(driving_s + idle_s), 0) / 3600.0)::float8 AS hours
      FROM ledger_day WHERE vehicle_id = b.v_id AND day > b.base_day AND day <= ${today}::date
    ) l ON TRUE
    ORDER BY b.v_id, b.id`.execute(db);
  return r.rows.map((x) => {
    const intervals: ScheduleIntervals = {
      intervalKm: x.interval_km,
      intervalHours: x.interval_hours,
      intervalDays: x.interval_days,
      warnKm: x.warn_km,
      warnHours: x.warn_hours,
      warnDays: x.warn_days,
    };
    const usedDays = Number(x.used_days);
    return {
      ...intervals,
      scheduleId: x.schedule_id,
      scheduleName: x.schedule_name,
      vehicleId: x.vehicle_id,
      licence: x.licence,
      orgId: x.org_id,
      orgPath: x.org_path,
      baseDay: x.base_day,
      lastWorkOrderId: x.last_work_order_id,
      dueDay: x.due_day,
      odometerKm: x.odometer_km,
      usedKm: x.used_km,
      usedHours: x.used_hours,
      usedDays,
      status: dueStatus(intervals, { km: x.used_km, hours: x.used_hours, days: usedDays }),
    };
  });
}
