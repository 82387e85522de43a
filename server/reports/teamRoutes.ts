/**
 * Team monitoring (menu `team`): each driver's violations per day, and the schedule beside what was
 * actually driven. Both join the schedule (`schedule`: a driver on a vehicle on a local day) with
 * what was derived for that vehicle and day: behaviour_day's counts, OverSpeed alarms, ledger_day
 * and trips. A schedule names no hours, so a vehicle's day is attributed to every driver scheduled
 * on it that day; violations on a day nobody was scheduled are listed without a driver.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParam, int, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { orgUnder, pathOfOrg } from '../platform/scope';
import { dayCriteria } from './ranges';
import { date, instant, ledgerBody, listOf, reportRoutes } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';
import { reportExportRoute } from './reportSheet';
import { BREAK_RULE_COLUMNS, SCHEDULE_COLUMNS, type BreakRuleRow, type ScheduleRow } from '../../schemas/kit/reportColumns';

const BASE = '/api/vehicle/team';
const LABELS = 'reports.fields';
const route = reportRoutes(LABELS, 'team');
/** Rows one answer carries at most; `truncated` says when there were more. */
export const TEAM_ROW_LIMIT = 5000;

export interface TeamCriteria {
  begin: string;
  end: string;
  vehicleId?: number | null;
  orgId?: number | null;
  driverId?: number | null;
  from: number;
  to: number;
}

export type { BreakRuleRow, ScheduleRow };

const limited = <T>(rows: T[]) => ({ rows: rows.slice(0, TEAM_ROW_LIMIT), truncated: rows.length > TEAM_ROW_LIMIT });

/** Violations per vehicle and local day in scope, then the drivers scheduled on them. */
export async function breakRules(db: Kysely<DB>, caller: Caller, c: TeamCriteria, timeZone: string): Promise<BreakRuleRow[]> {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const scope = vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId });
  const r = await sql<BreakRuleRow>`
    WITH behaviour AS (
      SELECT b.vehicle_id, b.day, b.harsh_acceleration, b.harsh_braking, b.sharp_turn, b.fatigue, b.speeding_s
      FROM behaviour_day b JOIN vehicle v ON v.id = b.vehicle_id
      WHERE b.day >= ${c.begin}::date AND b.day <= ${c.end}::date AND ${scope}
    ), overs AS (
      SELECT a.vehicle_id, (a.fired_at AT TIME ZONE ${timeZone})::date AS day, count(*)::int AS n
      FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id
      WHERE a.type = 'OverSpeed' AND a.state = 'current' AND a.fired_at >= ${new Date(c.from)} AND a.fired_at < ${new Date(c.to)} AND ${scope}
      GROUP BY 1, 2
    ), days AS (
      SELECT COALESCE(b.vehicle_id, o.vehicle_id) AS vehicle_id, COALESCE(b.day, o.day) AS day,
             COALESCE(o.n, 0) AS over_speed, COALESCE(b.speeding_s, 0) AS speeding_s, COALESCE(b.fatigue, 0) AS fatigue,
             COALESCE(b.harsh_acceleration, 0) AS harsh_acceleration, COALESCE(b.harsh_braking, 0) AS harsh_braking, COALESCE(b.sharp_turn, 0) AS sharp_turn
      FROM behaviour b FULL JOIN overs o ON o.vehicle_id = b.vehicle_id AND o.day = b.day
    )
    SELECT d.day::text AS date, s.driver_id AS "driverId", dr.name AS "driverName",
           COALESCE(array_agg(s.shift ORDER BY s.shift) FILTER (WHERE s.shift IS NOT NULL), '{}') AS shifts,
           v.id AS "vehicleId", v.licence,
           d.over_speed AS "overSpeed", d.speeding_s AS "speedingS", d.fatigue, d.harsh_acceleration AS "harshAcceleration",
           d.harsh_braking AS "harshBraking", d.sharp_turn AS "sharpTurn",
           (d.over_speed + d.fatigue + d.harsh_acceleration + d.harsh_braking + d.sharp_turn)::int AS total
    FROM days d JOIN vehicle v ON v.id = d.vehicle_id
    LEFT JOIN schedule s ON s.vehicle_id = d.vehicle_id AND s.work_date = d.day
    LEFT JOIN driver dr ON dr.id = s.driver_id
    WHERE (d.over_speed + d.fatigue + d.harsh_acceleration + d.harsh_braking + d.sharp_turn + d.speeding_s) > 0
      ${c.driverId ? sql`AND s.driver_id = ${c.driverId}` : sql``}
    GROUP BY d.day, s.driver_id, dr.name, v.id, v.licence, d.over_speed, d.speeding_s, d.fatigue, d.harsh_acceleration, d.harsh_braking, d.sharp_turn
    ORDER BY d.day DESC, dr.name NULLS LAST, v.licence
    LIMIT ${TEAM_ROW_LIMIT + 1}`.execute(db);
  return r.rows;
}

/** Schedule rows in scope, each with its vehicle's ledger and first departure and last arrival that day. */
export async function orderSchedule(db: Kysely<DB>, caller: Caller, c: TeamCriteria, timeZone: string): Promise<ScheduleRow[]> {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const where: RawBuilder<unknown>[] = [
    sql`s.work_date >= ${c.begin}::date`,
    sql`s.work_date <= ${c.end}::date`,
    orgUnder('s.org_id', caller.orgPath),
  ];
  if (c.orgId) where.push(orgUnder('s.org_id', pathOfOrg(c.orgId)));
  if (c.vehicleId) where.push(sql`s.vehicle_id = ${c.vehicleId}`);
  if (c.driverId) where.push(sql`s.driver_id = ${c.driverId}`);
  const r = await sql<ScheduleRow>`
    SELECT s.id, s.work_date::text AS date, s.shift, s.route, s.driver_id AS "driverId", dr.name AS "driverName",
           s.vehicle_id AS "vehicleId", v.licence,
           COALESCE(l.mileage_km, 0)::float8 AS "mileageKm", COALESCE(l.driving_s, 0)::int AS "drivingS", COALESCE(l.trip_count, 0)::int AS "tripCount",
           t.first AS "firstDeparture", t.last AS "lastArrival"
    FROM schedule s JOIN driver dr ON dr.id = s.driver_id
    LEFT JOIN vehicle v ON v.id = s.vehicle_id
    LEFT JOIN ledger_day l ON l.vehicle_id = s.vehicle_id AND l.day = s.work_date
    LEFT JOIN LATERAL (
      SELECT min(tr.begin_time) AS first, max(tr.end_time) AS last FROM trip tr
      WHERE tr.vehicle_id = s.vehicle_id AND tr.begin_time >= (s.work_date::timestamp AT TIME ZONE ${timeZone})
        AND tr.begin_time < ((s.work_date + 1)::timestamp AT TIME ZONE ${timeZone})
    ) t ON true
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY s.work_date, dr.name, s.driver_id, s.shift
    LIMIT ${TEAM_ROW_LIMIT + 1}`.execute(db);
  return r.rows.map((x) => ({
    ...x,
    firstDeparture: x.firstDeparture ? new Date(x.firstDeparture).toISOString() : null,
    lastArrival: x.lastArrival ? new Date(x.lastArrival).toISOString() : null,
  }));
}

const nullableInt = { type: ['integer', 'null'] } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const body = ledgerBody({ driverId: { ...idParam, type: ['integer', 'null'] } });
const answerOf = (row: Record<string, unknown>) => ({
  type: 'object',
  properties: {
    rows: listOf({ type: 'object', properties: row }),
    truncated: { type: 'boolean', description: `more than ${TEAM_ROW_LIMIT} rows matched; the first ${TEAM_ROW_LIMIT} are given` },
  },
});

export function registerTeamRoutes(app: FastifyInstance, { db, timeZone }: ReportDeps): void {
  const criteriaOf = (b: unknown) => dayCriteria<TeamCriteria>(b, timeZone);

  app.post(
    `${BASE}/breakRules`,
    route(
      "each driver's violations per local day (OverSpeed alarms, seconds speeding, fatigue, harsh events) from the scheduled vehicle's day; unscheduled days with no driver",
      body,
      answerOf({
        date,
        driverId: nullableInt,
        driverName: nullableStr,
        shifts: listOf(str),
        vehicleId: int,
        licence: str,
        overSpeed: int,
        speedingS: int,
        fatigue: int,
        harshAcceleration: int,
        harshBraking: int,
        sharpTurn: int,
        total: int,
      }),
    ),
    async (req) => limited(await breakRules(db, callerOf(req), criteriaOf(req.body), timeZone)),
  );

  app.post(
    `${BASE}/orderSchedule`,
    route(
      'the schedule (driver, shift, vehicle, route by local day) beside what the scheduled vehicle drove that day',
      body,
      answerOf({
        id: int,
        date,
        shift: str,
        route: nullableStr,
        driverId: int,
        driverName: str,
        vehicleId: nullableInt,
        licence: nullableStr,
        mileageKm: { type: 'number' },
        drivingS: int,
        tripCount: int,
        firstDeparture: { ...instant, type: ['string', 'null'] },
        lastArrival: { ...instant, type: ['string', 'null'] },
      }),
    ),
    async (req) => limited(await orderSchedule(db, callerOf(req), criteriaOf(req.body), timeZone)),
  );

  const sheet = { labels: LABELS, tag: 'team', body } as const;
  reportExportRoute(app, `${BASE}/breakRules`, sheet, {
    titleKey: 'reports.sheets.breakRules',
    columns: BREAK_RULE_COLUMNS,
    rows: async (caller, b) => (await breakRules(db, caller, criteriaOf(b), timeZone)).slice(0, TEAM_ROW_LIMIT),
  });
  reportExportRoute(app, `${BASE}/orderSchedule`, sheet, {
    titleKey: 'reports.sheets.orderSchedule',
    columns: SCHEDULE_COLUMNS,
    rows: async (caller, b) => (await orderSchedule(db, caller, criteriaOf(b), timeZone)).slice(0, TEAM_ROW_LIMIT),
  });
}
