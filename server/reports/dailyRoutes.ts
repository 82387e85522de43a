/**
 * The daily driving report (statistics/daily): ledger rows by day and vehicle with their totals,
 * and the same as xlsx, written with the console table's own columns (schemas/kit/ledgerColumns)
 * so the file holds exactly what the page shows, totals row included.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { translator } from '../../schemas/kit/catalogue';
import { LEDGER_COLUMNS, type LedgerDayVehicleRow } from '../../schemas/kit/ledgerColumns';
import { ledgerDailySchema } from '../../schemas/kit/ledger';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { tableWorkbook } from '../platform/crud/sheet/workbook';
import type { DB } from '../platform/db/tables';
import { progressHeaders } from '../platform/progress/track';
import { addRows, sendReportSheet, type SheetMaker } from './reportSheet';
import { FIGURES, ledgerFrom, ledgerTotals, type LedgerCriteria } from './ledgerRoutes';
import { dayCriteria } from './ranges';
import { vehicleScope } from './scope';
import { ledgerBody, listOf, reportRoutes } from './schemas';
import type { ReportDeps } from './tripRoutes';

const BASE = '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByDayAndVehicle';
const LABELS = 'reports.fields';
const route = reportRoutes(LABELS, 'ledger');

export async function ledgerByDayAndVehicle(db: Kysely<DB>, caller: Caller, c: LedgerCriteria): Promise<LedgerDayVehicleRow[]> {
  return (
    await sql<LedgerDayVehicleRow>`SELECT l.day::text AS date, v.id AS "vehicleId", v.licence, ${FIGURES} FROM ${ledgerFrom(caller, c)}
      GROUP BY l.day, v.id, v.licence ORDER BY l.day DESC, v.licence, v.id`.execute(db)
  ).rows;
}

export interface FuelEventRow {
  id: number;
  vehicleId: number;
  licence: string;
  kind: 'refuel' | 'drain';
  time: Date;
  amountL: number;
  latitude: number;
  longitude: number;
}

/** Refuels and suspected drains of the vehicles in scope inside the range of local days, latest first. */
export async function fuelEvents(
  db: Kysely<DB>,
  caller: Caller,
  c: LedgerCriteria & { from: number; to: number },
): Promise<FuelEventRow[]> {
  return (
    await sql<FuelEventRow>`SELECT e.id, v.id AS "vehicleId", v.licence, e.kind, e.time, round(e.amount_l::numeric, 2)::float8 AS "amountL", e.latitude, e.longitude
      FROM fuel_event e JOIN vehicle v ON v.id = e.vehicle_id
      WHERE e.time >= ${new Date(c.from)} AND e.time < ${new Date(c.to)} AND ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}
      ORDER BY e.time DESC, e.id DESC LIMIT 2000`.execute(db)
  ).rows;
}

/** The ledger rows by day and vehicle of a `{criteria}` body, with their totals. */
async function dailyReport({ db, timeZone }: ReportDeps, caller: Caller, body: unknown) {
  const c = dayCriteria<LedgerCriteria>(body, timeZone);
  const [rows, total] = await Promise.all([ledgerByDayAndVehicle(db, caller, c), ledgerTotals(db, caller, c)]);
  return { rows, total };
}

/** The daily report as xlsx, totals row last: what the export answers and a scheduled report attaches. */
export const dailySheet =
  (deps: ReportDeps): SheetMaker =>
  async (ctx, body) => {
    const { rows, total } = await dailyReport(deps, ctx.caller, body);
    ctx.progress.phase('write', rows.length);
    const t = translator(ctx.language);
    const title = t('reports.ledger.sheetTitle');
    const sheet = tableWorkbook(
      title,
      LEDGER_COLUMNS.map((col) => t(col.labelKey)),
    );
    await addRows(ctx.progress, rows, 0, (r) => sheet.addRow(LEDGER_COLUMNS.map((col) => col.value(r))));
    sheet.addRow(
      LEDGER_COLUMNS.map((col, i) => (i === 0 ? t('reports.ledger.total') : col.value(total))),
      true,
    );
    return { title, buffer: await sheet.buffer() };
  };

export function registerDailyRoutes(app: FastifyInstance, deps: ReportDeps): void {
  const criteriaOf = (req: FastifyRequest) => dayCriteria<LedgerCriteria>(req.body, deps.timeZone);
  const report = async (req: FastifyRequest) => dailyReport(deps, callerOf(req), req.body);

  app.post(BASE, route('ledger rows by local day and vehicle, with their totals', ledgerBody(), ledgerDailySchema), report);

  app.post(
    '/api/vehicle/dailyDrivingBehavior/fuelEvents',
    route(
      'refuels and suspected drains in the range, latest first (at most 2,000)',
      ledgerBody(),
      listOf({
        type: 'object',
        properties: {
          id: { type: 'integer' },
          vehicleId: { type: 'integer' },
          licence: { type: 'string' },
          kind: { enum: ['refuel', 'drain'] },
          time: { type: 'string', format: 'date-time' },
          amountL: { type: 'number' },
          latitude: { type: 'number' },
          longitude: { type: 'number' },
        },
      }),
    ),
    async (req) => fuelEvents(deps.db, callerOf(req), criteriaOf(req)),
  );

  const make = dailySheet(deps);
  app.post(
    `${BASE}/export`,
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['ledger'],
        summary: 'the same rows and totals as xlsx, in the columns the console shows',
        body: ledgerBody(),
        headers: progressHeaders,
      },
    },
    async (req, reply) => sendReportSheet(req, reply, make),
  );
}
