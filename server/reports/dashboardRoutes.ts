/**
 * The dashboard and the live map (SPEC §7 index/*, vehicleReport, monitor/query): counts of the
 * vehicles in scope by state, their distribution, cost over time, one vehicle's state with today's
 * and this month's ledger and its last trip, and every vehicle's latest position. Online means a
 * live gateway session; moving means online with the ACC on at MOVING_KMH or more; alarming means
 * a current alarm of any category (intelligence/alarms/current.ts), not the last report's alarm word.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { idParams, int, nullable, num, str } from '../platform/crud/routeSpec';
import { likePattern } from '../platform/crud/query';
import type { DB } from '../platform/db/tables';
import { MIN_MOVING_KMH } from '../intelligence/trips/segment';
import { alarmingVehicle } from '../alarmCentre/current';
import { ledgerByDay, ledgerByMonth, ledgerTotals } from './ledgerRoutes';
import { dayRange, daysBefore, today } from './ranges';
import { date, listOf, reportRoutes } from './schemas';
import { costRows } from './costRoutes';
import { vehicleInScope, vehicleScope } from './scope';
import { tripOut, type ReportDeps } from './tripRoutes';
import { typed } from '../platform/http/typed';
import { vehicleCountsSchema, vehicleDistributionSchema, type Bucket, type VehicleCounts } from '../../schemas/kit/dashboard';
import { MONITOR_FIELDS, monitorItemSchema, type MonitorCriteria, type MonitorItem } from '../../schemas/kit/monitor';
import { vehicleReportSchema } from '../../schemas/kit/vehicleReport';
import { MonitorSnapshot, type MonitorFormat } from './monitorSnapshot';

export type { MonitorFormat } from './monitorSnapshot';

const READ = NONE;
const LABELS = 'reports.fields';
const route = reportRoutes(LABELS, 'dashboard');
/** A service ending within this many days counts as expiring (ended ones too). */
export const SERVICE_WARNING_DAYS = 30;

const ONLINE = sql`COALESCE(tl.online, false)`;
const MOVING = sql`COALESCE(${ONLINE} AND s.acc AND s.speed >= ${MIN_MOVING_KMH}::real, false)`;
const STATE_JOINS = sql`LEFT JOIN vehicle_state s ON s.vehicle_id = v.id LEFT JOIN terminal_link tl ON tl.terminal_id = v.terminal_id`;

const orgFilterBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    criteria: { type: ['object', 'null'], additionalProperties: false, properties: { orgId: { type: ['integer', 'null'], minimum: 1 } } },
  },
} as const;

type MonitorRow = MonitorItem;

/** The same figures as MonitorSnapshot.counts, by the database (the reference the tests compare with). */
export async function vehicleCounts(db: Kysely<DB>, caller: Caller, orgId: number | null, day: string) {
  const r = await sql<VehicleCounts>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE ${ONLINE})::int AS online,
           count(*) FILTER (WHERE NOT ${ONLINE})::int AS offline,
           count(*) FILTER (WHERE ${MOVING})::int AS moving,
           count(*) FILTER (WHERE ${ONLINE} AND NOT ${MOVING})::int AS parked,
           count(*) FILTER (WHERE ${alarmingVehicle('v.id')})::int AS alarming,
           count(*) FILTER (WHERE v.service_end IS NOT NULL AND v.service_end <= ${day}::date + ${SERVICE_WARNING_DAYS}::int)::int AS "serviceExpiring"
    FROM vehicle v ${STATE_JOINS}
    WHERE ${vehicleScope(caller, { orgId })}`.execute(db);
  return r.rows[0];
}

const isoText = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The live map's list as the JSON text of the answer, built by the database in one row (one
 * vehicle's for the vehicle detail; the whole list is answered from MonitorSnapshot, and the tests
 * compare the two).
 */
export async function monitorJson(
  db: Kysely<DB>,
  caller: Caller,
  c: MonitorCriteria & { vehicleId?: number },
  format: MonitorFormat = 'items',
): Promise<string> {
  const filters = [vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })];
  if (c.keyword) filters.push(sql`(v.licence ILIKE ${likePattern(c.keyword)} OR v.vin ILIKE ${likePattern(c.keyword)})`);
  if (typeof c.online === 'boolean') filters.push(c.online ? ONLINE : sql`NOT ${ONLINE}`);
  if (typeof c.moving === 'boolean') filters.push(c.moving ? MOVING : sql`NOT ${MOVING}`);
  const rows = sql`
      SELECT v.id AS "vehicleId", v.licence, v.org_id AS "orgId", o.name AS "orgName", ${ONLINE} AS online, ${MOVING} AS moving,
             s.latitude, s.longitude, s.speed, s.direction, s.acc, s.alarm, s.fuel_l AS "fuelL", s.mileage_km AS "mileageKm",
             ${isoText('s.device_time')} AS time, ${isoText('s.received_at')} AS "receivedAt", ${alarmingVehicle('v.id')} AS alarming
      FROM vehicle v JOIN organisation o ON o.id = v.org_id ${STATE_JOINS}
      WHERE ${sql.join(filters, sql` AND `)}`;
  // Columns: one aggregate per field over the sorted rows (the subquery's order feeds each array).
  const body =
    format === 'columns'
      ? sql`json_build_object('columns', json_build_object(${sql.join(MONITOR_FIELDS.map((f) => sql`${sql.lit(f)}::text, COALESCE(json_agg(row.${sql.ref(f)}), '[]'::json)`))}), 'total', count(*))::text AS body
          FROM (${rows} ORDER BY v.licence, v.id) row`
      : sql`json_build_object('data', COALESCE(json_agg(row ORDER BY row."licence", row."vehicleId"), '[]'::json), 'total', count(*))::text AS body
          FROM (${rows}) row`;
  const r = await sql<{ body: string }>`SELECT ${body}`.execute(db);
  return r.rows[0].body;
}

/** One vehicle's monitor row, or null. */
async function monitorRow(db: Kysely<DB>, caller: Caller, vehicleId: number): Promise<MonitorRow | null> {
  const { data } = JSON.parse(await monitorJson(db, caller, { vehicleId })) as { data: MonitorRow[] };
  return data[0] ?? null;
}

export function registerDashboardRoutes(fastify: FastifyInstance, { db, timeZone }: ReportDeps): void {
  const app = typed(fastify);
  // One per app (process): brought up to date from the database before each answer.
  const snapshot = new MonitorSnapshot(db);
  app.post(
    '/api/vehicle/index/vehicleCount',
    route('vehicles in scope: total, online, offline, moving, parked, alarming, service expiring', orgFilterBody, vehicleCountsSchema),
    async (req) => {
      const orgId = req.body?.criteria?.orgId ?? null;
      return snapshot.counts(callerOf(req), orgId, today(timeZone).day, SERVICE_WARNING_DAYS);
    },
  );

  app.post(
    '/api/vehicle/index/vehicleDis',
    route('vehicles in scope by organisation, brand, status and online', orgFilterBody, vehicleDistributionSchema),
    async (req) => {
      const caller = callerOf(req);
      const orgId = req.body?.criteria?.orgId ?? null;
      const scope = vehicleScope(caller, { orgId });
      const [byOrg, byBrand, byStatus, byOnline] = await Promise.all([
        sql<Bucket>`SELECT o.id AS key, o.name, count(*)::int AS count FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE ${scope} GROUP BY o.id, o.name ORDER BY count DESC, o.name`.execute(
          db,
        ),
        sql<Bucket>`SELECT b.id AS key, b.name, count(*)::int AS count FROM vehicle v LEFT JOIN vehicle_brand b ON b.id = v.brand_id WHERE ${scope} GROUP BY b.id, b.name ORDER BY count DESC, b.name`.execute(
          db,
        ),
        sql<Bucket>`SELECT v.status AS key, v.status AS name, count(*)::int AS count FROM vehicle v WHERE ${scope} GROUP BY v.status ORDER BY count DESC, v.status`.execute(
          db,
        ),
        sql<Bucket>`SELECT CASE WHEN ${ONLINE} THEN 'online' ELSE 'offline' END AS key, CASE WHEN ${ONLINE} THEN 'online' ELSE 'offline' END AS name, count(*)::int AS count
            FROM vehicle v ${STATE_JOINS} WHERE ${scope} GROUP BY 1 ORDER BY 1 DESC`.execute(db),
      ]);
      return { byOrg: byOrg.rows, byBrand: byBrand.rows, byStatus: byStatus.rows, byOnline: byOnline.rows };
    },
  );

  app.post(
    '/api/vehicle/index/vehicleMoney',
    route(
      'every cost (fuel, maintenance, other) and the fuel litres by day (default the last 30 days) and by month (default the last 12 months)',
      {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          criteria: {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: { begin: date, end: date, orgId: { type: ['integer', 'null'], minimum: 1 } },
          },
        },
      } as const,
      {
        type: 'object',
        required: ['byDay', 'byMonth'],
        properties: {
          byDay: listOf({ type: 'object', required: ['date', 'cost', 'fuelL'], properties: { date, cost: num, fuelL: num } }),
          byMonth: listOf({ type: 'object', required: ['month', 'cost', 'fuelL'], properties: { month: str, cost: num, fuelL: num } }),
        },
      } as const,
    ),
    async (req) => {
      const caller = callerOf(req);
      const c = req.body?.criteria ?? {};
      const { day } = today(timeZone);
      const end = c.end ?? day;
      const begin = c.begin ?? daysBefore(end, 29);
      dayRange(begin, end, timeZone);
      const monthsFrom = c.begin ?? `${Number(end.slice(0, 4)) - 1}-${end.slice(5, 7)}-01`;
      // The money is every cost (fuel, maintenance, other: costRoutes.ts); the litres are the ledger's.
      const [byDay, byMonth, costDays, costMonths] = await Promise.all([
        ledgerByDay(db, caller, { begin, end, orgId: c.orgId }),
        ledgerByMonth(db, caller, { begin: monthsFrom, end, orgId: c.orgId }),
        costRows(db, caller, { begin, end, orgId: c.orgId }, 'day'),
        costRows(db, caller, { begin: monthsFrom, end, orgId: c.orgId }, 'month'),
      ]);
      /** Each day (month) of either, in order: its total cost and its litres. */
      const merged = (fuel: Array<{ key: string; fuelL: number }>, costs: typeof costDays) => {
        const litres = new Map(fuel.map((r) => [r.key, r.fuelL]));
        const total = new Map(costs.map((r) => [r.key, r.total]));
        return [...new Set([...litres.keys(), ...total.keys()])]
          .sort()
          .map((k) => ({ key: k, cost: total.get(k) ?? 0, fuelL: litres.get(k) ?? 0 }));
      };
      return {
        byDay: merged(
          byDay.map((r) => ({ key: r.date, fuelL: r.fuelL })),
          costDays,
        ).map(({ key, ...r }) => ({ date: key, ...r })),
        byMonth: merged(
          byMonth.map((r) => ({ key: r.month, fuelL: r.fuelL })),
          costMonths,
        ).map(({ key, ...r }) => ({ month: key, ...r })),
      };
    },
  );

  const detail = async (caller: Caller, id: number) => {
    const v = await vehicleInScope(db, caller, id);
    const { day, monthStart } = today(timeZone);
    const [state, todayFigures, monthFigures, trip] = await Promise.all([
      monitorRow(db, caller, id),
      ledgerTotals(db, caller, { begin: day, end: day, vehicleId: id }),
      ledgerTotals(db, caller, { begin: monthStart, end: day, vehicleId: id }),
      sql<Parameters<typeof tripOut>[0]>`SELECT * FROM trip WHERE vehicle_id = ${id} ORDER BY begin_time DESC LIMIT 1`.execute(db),
    ]);
    return {
      vehicle: v,
      state: state && state.time ? state : null,
      today: { date: day, ...todayFigures },
      month: { month: day.slice(0, 7), ...monthFigures },
      lastTrip: trip.rows[0] ? tripOut(trip.rows[0]) : null,
    };
  };
  app.post(
    '/api/vehicle/index/vehicleDetail/:id',
    {
      config: { permission: READ },
      schema: {
        tags: ['dashboard'],
        summary: "a vehicle's state, today's and this month's ledger, and its last trip",
        params: idParams,
        response: { 200: vehicleReportSchema },
      },
    },
    async (req) => detail(callerOf(req), req.params.id),
  );
  app.get(
    '/api/vehicle/vehicleReport/:id',
    {
      config: { permission: READ },
      schema: {
        tags: ['dashboard'],
        summary: 'the same as POST index/vehicleDetail/{id}',
        params: idParams,
        response: { 200: vehicleReportSchema },
      },
    },
    async (req) => detail(callerOf(req), req.params.id),
  );

  app.post(
    '/api/vehicle/monitor/query',
    route(
      'for the live map: every vehicle in scope with its latest position and state (no paging)',
      {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          criteria: {
            type: ['object', 'null'],
            additionalProperties: false,
            properties: {
              orgId: { type: ['integer', 'null'], minimum: 1 },
              keyword: { type: ['string', 'null'], maxLength: 100 },
              online: nullable('boolean'),
              moving: nullable('boolean'),
              since: {
                type: ['string', 'null'],
                maxLength: 4000,
                description:
                  "an earlier answer's asOf: only the vehicles whose state or session changed after it (with removed and full, see the answer)",
              },
            },
          },
          format: {
            type: ['string', 'null'],
            enum: ['items', 'columns', null],
            description: "'columns': one array per field instead of one object per vehicle (the live map's compact form)",
          },
        },
      } as const,
      {
        type: 'object',
        properties: {
          data: listOf(monitorItemSchema),
          columns: {
            type: 'object',
            properties: Object.fromEntries(Object.entries(monitorItemSchema.properties).map(([k, v]) => [k, { type: 'array', items: v }])),
          },
          total: int,
          asOf: {
            type: 'string',
            description: 'the database snapshot this answer reflects; pass it as criteria.since to ask only what changed after it',
          },
          full: {
            type: 'boolean',
            description:
              'with since: true when this is the whole list (a vehicle or organisation was added, edited or deleted after since, or since is not an asOf)',
          },
          removed: {
            type: 'array',
            items: int,
            description: 'with since: vehicles in scope that changed and no longer match the criteria',
          },
        },
      },
    ),
    async (req, reply) => {
      const body = req.body;
      // Pre-built JSON text: sent as is, never through the response serialiser.
      return reply
        .type('application/json; charset=utf-8')
        .send(await snapshot.answer(callerOf(req), body?.criteria ?? {}, body?.format ?? 'items'));
    },
  );
}
