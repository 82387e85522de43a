/**
 * The maintenance status routes: each schedule × vehicle in the caller's scope with what it used
 * since its last service and whether it is due or overdue (the maintenance page, the dashboard's
 * counts), and one vehicle's (its detail page). The status list is also the page's xlsx (export and
 * scheduled report): the state on the day it is written, whatever period a schedule names.
 */

import type { FastifyInstance } from 'fastify';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../../schemas/kit/authority';
import { MAINTENANCE_COLUMNS, type MaintenanceUsageRow } from '../../schemas/kit/reportColumns';
import type { Caller } from '../platform/auth/caller';
import { idParams } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { maintenanceStatusSchema } from '../../schemas/kit/maintenanceStatus';
import { localDay } from '../intelligence/localDay';
import { DUE_STATES, type DueState } from '../maintenance/dueStatus';
import { scheduleUsage, type ScheduleUsage } from '../maintenance/scheduleUsage';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';

const RANK: Record<DueState, number> = { overdue: 0, due: 1, ok: 2 };

/** A usage row as answered: the status flattened, worst first. */
const answerRow = (u: ScheduleUsage) => ({
  scheduleId: u.scheduleId,
  scheduleName: u.scheduleName,
  vehicleId: u.vehicleId,
  licence: u.licence,
  orgId: u.orgId,
  state: u.status.state,
  trigger: u.status.trigger,
  baseDay: u.baseDay,
  dueDay: u.dueDay,
  lastWorkOrderId: u.lastWorkOrderId,
  odometerKm: u.odometerKm,
  usedKm: u.usedKm === null ? null : Math.round(u.usedKm * 10) / 10,
  usedHours: u.usedHours === null ? null : Math.round(u.usedHours * 10) / 10,
  usedDays: u.usedDays,
  intervalKm: u.intervalKm,
  intervalHours: u.intervalHours,
  intervalDays: u.intervalDays,
  remainingKm: u.status.remainingKm,
  remainingHours: u.status.remainingHours,
  remainingDays: u.status.remainingDays,
});

const ordered = (rows: ScheduleUsage[]) =>
  rows
    .map(answerRow)
    .sort((a, b) => RANK[a.state] - RANK[b.state] || a.licence.localeCompare(b.licence) || a.scheduleName.localeCompare(b.scheduleName));

const counts = (rows: ReadonlyArray<{ state: DueState }>) => ({
  ok: rows.filter((r) => r.state === 'ok').length,
  due: rows.filter((r) => r.state === 'due').length,
  overdue: rows.filter((r) => r.state === 'overdue').length,
});

type StatusCriteria = { orgId?: number | null; vehicleId?: number | null; state?: DueState | null };

/** Every schedule × vehicle in the caller's scope (narrowed by the criteria's organisation or vehicle), worst first, as of today. */
const statusRows = async ({ db, timeZone }: ReportDeps, caller: Caller, c: StatusCriteria) =>
  ordered(await scheduleUsage(db, localDay(Date.now(), timeZone), timeZone, { vehicles: vehicleScope(caller, c) }));

const inState = <R extends { state: DueState }>(rows: R[], state: DueState | null | undefined) =>
  state ? rows.filter((r) => r.state === state) : rows;

const criteriaOf = (body: unknown): StatusCriteria => (body as { criteria?: StatusCriteria | null } | null)?.criteria ?? {};

/** The status list (narrowed to `criteria.state` when given), as the export and a scheduled report write it. */
export const maintenanceSheet = (deps: ReportDeps): ReportSheet<MaintenanceUsageRow> => ({
  titleKey: 'reports.sheets.maintenance',
  columns: MAINTENANCE_COLUMNS,
  rows: async (caller, body) => {
    const c = criteriaOf(body);
    return inState(await statusRows(deps, caller, c), c.state);
  },
});

const statusBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    criteria: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        orgId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
        vehicleId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
        state: { type: ['string', 'null'], enum: [...DUE_STATES, null] },
      },
    },
  },
} as const;

export function registerMaintenanceRoutes(fastify: FastifyInstance, deps: ReportDeps): void {
  const { db, timeZone } = deps;
  const app = typed(fastify);
  const config = { permission: NONE, labels: 'maintenance.fields' };
  app.post(
    '/api/vehicle/maintenance/status',
    {
      config,
      schema: {
        tags: ['maintenance'],
        summary:
          'every schedule × vehicle in scope with its usage since the last service and its state (overdue first), and the counts per state',
        body: statusBody,
        response: { 200: maintenanceStatusSchema },
      },
    },
    async (req) => {
      const c = criteriaOf(req.body);
      const rows = await statusRows(deps, callerOf(req), c);
      return { counts: counts(rows), data: inState(rows, c.state) };
    },
  );
  reportExportRoute(
    app,
    '/api/vehicle/maintenance/status',
    { labels: 'maintenance.fields', tag: 'maintenance', body: statusBody },
    maintenanceSheet(deps),
  );

  app.get(
    '/api/vehicle/maintenance/vehicle/:id',
    {
      config,
      schema: {
        tags: ['maintenance'],
        summary: "one vehicle's schedules with their usage and state (404 outside the caller's scope)",
        params: idParams,
        response: { 200: maintenanceStatusSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      await vehicleInScope(db, caller, id);
      const rows = ordered(
        await scheduleUsage(db, localDay(Date.now(), timeZone), timeZone, { vehicles: vehicleScope(caller, { vehicleId: id }) }),
      );
      return { counts: counts(rows), data: rows };
    },
  );
}
