/**
 * The maintenance status routes: each schedule × vehicle in the caller's scope with what it used
 * since its last service and whether it is due or overdue (the maintenance page, the dashboard's
 * counts), and one vehicle's (its detail page).
 */

import type { FastifyInstance } from 'fastify';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../../schemas/kit/authority';
import { idParams } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { maintenanceStatusSchema } from '../../schemas/kit/maintenanceStatus';
import { localDay } from '../intelligence/localDay';
import { DUE_STATES, type DueState } from '../maintenance/dueStatus';
import { scheduleUsage, type ScheduleUsage } from '../maintenance/scheduleUsage';
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

export function registerMaintenanceRoutes(fastify: FastifyInstance, { db, timeZone }: ReportDeps): void {
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
        body: {
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
        } as const,
        response: { 200: maintenanceStatusSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const c = req.body?.criteria ?? {};
      const rows = ordered(await scheduleUsage(db, localDay(Date.now(), timeZone), timeZone, { vehicles: vehicleScope(caller, c) }));
      return { counts: counts(rows), data: c.state ? rows.filter((r) => r.state === c.state) : rows };
    },
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
