/**
 * Ledger reports (SPEC §7 dailyDrivingBehavior, monthUsageReport): sums of the daily ledger rows of
 * the vehicles in scope, by day, by month, by vehicle, the top seven, the totals, and the
 * dashboard's figures. Criteria `{begin, end}` are local days (FLEET_TIMEZONE), both inclusive.
 * The sums per vehicle are also the fuel page's xlsx (export and scheduled report).
 */

import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/http/typed';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  ledgerDayRowSchema,
  ledgerFiguresSchema,
  ledgerHomeSchema,
  ledgerMonthRowSchema,
  ledgerOrgRowSchema,
  ledgerVehicleRowSchema,
  type LedgerCriteria as RangeCriteria,
  type LedgerFigures,
} from '../../schemas/kit/ledger';
import { FUEL_VEHICLE_COLUMNS, type FuelVehicleRow } from '../../schemas/kit/reportColumns';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { idParams } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { dayCriteria, daysBefore, today } from './ranges';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { ledgerBody, listOf } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';

const READ = NONE;
const LABELS = 'reports.fields';
const BASE = '/api/vehicle/dailyDrivingBehavior';

export type LedgerCriteria = RangeCriteria & { by?: 'mileage' | 'fuel' | null };

/** The ledger's figures, as one day of it holds them (`schemas/kit/ledgerColumns` publishes the type). */
export type LedgerFiguresRow = LedgerFigures;

/** Sums of ledger rows `l`, rounded as they are shown. */
export const FIGURES = sql`
  COALESCE(round(sum(l.mileage_km)::numeric, 3), 0)::float8 AS "mileageKm",
  COALESCE(round(sum(l.fuel_l)::numeric, 2), 0)::float8 AS "fuelL",
  COALESCE(round(sum(l.refuel_l)::numeric, 2), 0)::float8 AS "refuelL",
  COALESCE(round(sum(l.drain_l)::numeric, 2), 0)::float8 AS "drainL",
  COALESCE(sum(l.driving_s), 0)::int AS "drivingS",
  COALESCE(sum(l.idle_s), 0)::int AS "idleS",
  COALESCE(sum(l.trip_count), 0)::int AS "tripCount",
  COALESCE(max(l.max_speed), 0)::float8 AS "maxSpeed",
  COALESCE(round(sum(l.cost)::numeric, 2), 0)::float8 AS cost`;

/** Ledger rows of the vehicles in scope between two local days. */
export function ledgerFrom(
  caller: Caller,
  c: { begin: string; end: string; vehicleId?: number | null; orgId?: number | null },
): RawBuilder<unknown> {
  return sql`ledger_day l JOIN vehicle v ON v.id = l.vehicle_id
    WHERE l.day >= ${c.begin}::date AND l.day <= ${c.end}::date AND ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}`;
}

export async function ledgerTotals(db: Kysely<DB>, caller: Caller, c: LedgerCriteria): Promise<LedgerFiguresRow> {
  return (await sql<LedgerFiguresRow>`SELECT ${FIGURES} FROM ${ledgerFrom(caller, c)}`.execute(db)).rows[0];
}

export async function ledgerByDay(db: Kysely<DB>, caller: Caller, c: LedgerCriteria) {
  return (
    await sql<
      LedgerFiguresRow & { date: string }
    >`SELECT l.day::text AS date, ${FIGURES} FROM ${ledgerFrom(caller, c)} GROUP BY l.day ORDER BY l.day`.execute(db)
  ).rows;
}

export async function ledgerByMonth(db: Kysely<DB>, caller: Caller, c: LedgerCriteria) {
  return (
    await sql<LedgerFiguresRow & { month: string }>`SELECT to_char(l.day, 'YYYY-MM') AS month, ${FIGURES} FROM ${ledgerFrom(caller, c)}
      GROUP BY to_char(l.day, 'YYYY-MM') ORDER BY month`.execute(db)
  ).rows;
}

async function ledgerByVehicle(db: Kysely<DB>, caller: Caller, c: LedgerCriteria, order: RawBuilder<unknown>, limit: number | null) {
  return (
    await sql<
      LedgerFiguresRow & { vehicleId: number; licence: string }
    >`SELECT v.id AS "vehicleId", v.licence, ${FIGURES} FROM ${ledgerFrom(caller, c)}
      GROUP BY v.id, v.licence ORDER BY ${order} ${limit ? sql`LIMIT ${limit}` : sql``}`.execute(db)
  ).rows;
}

/** The ledger per vehicle over the range, by licence (statistics/fuel's table), as the export and a scheduled report write it. */
export const fuelSheet = ({ db, timeZone }: ReportDeps): ReportSheet<FuelVehicleRow> => ({
  titleKey: 'reports.sheets.fuel',
  columns: FUEL_VEHICLE_COLUMNS,
  rows: async (caller, body) => ledgerByVehicle(db, caller, dayCriteria<LedgerCriteria>(body, timeZone), sql`v.licence`, null),
});

/** Ledger rows summed per organisation the vehicles belong to (each vehicle counts for its own organisation only). */
async function ledgerByOrg(db: Kysely<DB>, caller: Caller, c: LedgerCriteria) {
  return (
    await sql<LedgerFiguresRow & { orgId: number; orgName: string; vehicles: number }>`SELECT o.name AS "orgName", x.*
      FROM (SELECT v.org_id AS "orgId", count(DISTINCT v.id)::int AS vehicles, ${FIGURES} FROM ${ledgerFrom(caller, c)} GROUP BY v.org_id) x
      JOIN organisation o ON o.id = x."orgId" ORDER BY x.cost DESC, o.name`.execute(db)
  ).rows;
}

/** With one vehicle asked for, its id and licence go on every row. */
async function withVehicle<T extends object>(
  db: Kysely<DB>,
  caller: Caller,
  c: LedgerCriteria,
  rows: T[],
): Promise<Array<T | (T & { vehicleId: number; licence: string })>> {
  if (!c.vehicleId) return rows;
  const v = await vehicleInScope(db, caller, c.vehicleId);
  return rows.map((r) => ({ ...r, vehicleId: v.id, licence: v.licence }));
}

export function registerLedgerRoutes(app: FastifyInstance, { db, timeZone }: ReportDeps): void {
  const criteriaOf = (body: unknown) => dayCriteria<LedgerCriteria>(body, timeZone);
  const route = (
    path: string,
    summary: string,
    answer: Record<string, unknown>,
    handler: (caller: Caller, c: LedgerCriteria) => Promise<unknown>,
    extra: Readonly<Record<string, object>> = {},
  ) =>
    app.post(
      `${BASE}/${path}`,
      {
        config: { permission: READ, labels: LABELS },
        schema: { tags: ['ledger'], summary, body: ledgerBody(extra), response: { 200: answer } },
      },
      async (req) => handler(callerOf(req), criteriaOf(req.body)),
    );

  route('mileageAndFuelByDay', 'ledger rows summed by local day', listOf(ledgerDayRowSchema), async (caller, c) =>
    withVehicle(db, caller, c, await ledgerByDay(db, caller, c)),
  );
  route('mileageAndFuelByMonth', 'ledger rows summed by month (the days rolled up)', listOf(ledgerMonthRowSchema), async (caller, c) =>
    withVehicle(db, caller, c, await ledgerByMonth(db, caller, c)),
  );
  route(
    'Top7',
    "the seven vehicles with the most mileage (criteria.by = 'fuel': the most fuel)",
    listOf(ledgerVehicleRowSchema),
    async (caller, c) =>
      ledgerByVehicle(db, caller, c, c.by === 'fuel' ? sql`"fuelL" DESC, v.licence` : sql`"mileageKm" DESC, v.licence`, 7),
    { by: { enum: ['mileage', 'fuel', null] } },
  );
  route('mileageAndFuel', 'ledger rows summed per vehicle over the range', listOf(ledgerVehicleRowSchema), async (caller, c) =>
    ledgerByVehicle(db, caller, c, sql`v.licence`, null),
  );
  reportExportRoute(app, `${BASE}/mileageAndFuel`, { labels: LABELS, tag: 'ledger', body: ledgerBody() }, fuelSheet({ db, timeZone }));
  route(
    'mileageAndFuelByOrg',
    'ledger rows summed per organisation (the organisation each vehicle belongs to), most cost first',
    listOf(ledgerOrgRowSchema),
    async (caller, c) => ledgerByOrg(db, caller, c),
  );
  route('total', 'ledger totals over the range', ledgerFiguresSchema, async (caller, c) => ledgerTotals(db, caller, c));

  app.get(
    `${BASE}/home`,
    {
      config: { permission: READ },
      schema: {
        tags: ['ledger'],
        summary: "the dashboard's ledger figures: today, yesterday, this month, last month and the last 7 days",
        response: { 200: ledgerHomeSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { day, monthStart } = today(timeZone);
      const yesterday = daysBefore(day, 1);
      const lastMonthEnd = daysBefore(monthStart, 1);
      const lastMonthStart = lastMonthEnd.slice(0, 8) + '01';
      const [t, y, m, lm, week] = await Promise.all([
        ledgerTotals(db, caller, { begin: day, end: day }),
        ledgerTotals(db, caller, { begin: yesterday, end: yesterday }),
        ledgerTotals(db, caller, { begin: monthStart, end: day }),
        ledgerTotals(db, caller, { begin: lastMonthStart, end: lastMonthEnd }),
        ledgerByDay(db, caller, { begin: daysBefore(day, 6), end: day }),
      ]);
      return { today: t, yesterday: y, month: m, lastMonth: lm, last7Days: week };
    },
  );

  typed(app).get(
    '/api/vehicle/monthUsageReport/monthMileageAndFuel/:id',
    {
      config: { permission: READ },
      schema: {
        tags: ['ledger'],
        summary: "one vehicle's ledger rows by month, the last 12 months",
        params: idParams,
        response: { 200: listOf(ledgerMonthRowSchema) },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const v = await vehicleInScope(db, caller, id);
      const { day } = today(timeZone);
      const begin = `${Number(day.slice(0, 4)) - 1}-${day.slice(5, 7)}-01`;
      const rows = await ledgerByMonth(db, caller, { begin, end: day, vehicleId: id });
      return rows.map((r) => ({ ...r, vehicleId: v.id, licence: v.licence }));
    },
  );
}
