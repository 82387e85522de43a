/**
 * Work orders in one click: from a due schedule, from a trouble-code (Fault) alarm, or from a code
 * of the health report; the expert fault library's cause and remedy filled in. Each creates the
 * row through the generic CRUD (refs, scope, stamps as any create), in the vehicle's organisation.
 * A vehicle's unfinished work order for the same schedule or code is answered instead of a second
 * one: 406 names it.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import type { EntityModel } from '../platform/crud/model';
import type { Row } from '../platform/crud/query';
import { idParams } from '../platform/crud/routeSpec';
import { createRow } from '../platform/crud/write';
import type { DB } from '../platform/db/tables';
import { AppError, invalid, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { orgUnder } from '../platform/scope';
import { expertFaultFor } from '../intelligence/alarms/dtcReports';
import { parseDtc } from '../intelligence/alarms/detectors/obd';

export interface WorkOrderRouteDeps {
  db: Kysely<DB>;
  workOrders: EntityModel;
}

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const UNFINISHED = ['open', 'inProgress'];

/** The vehicle's organisation when the caller may see the vehicle; 404 otherwise. */
async function vehicleOrg(db: Kysely<DB>, caller: Caller, vehicleId: number): Promise<number> {
  const r = await sql<{
    org_id: number;
  }>`SELECT v.org_id FROM vehicle v WHERE v.id = ${vehicleId} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
  if (!r.rows[0]) throw notFound();
  return r.rows[0].org_id;
}

/** Refuses a second unfinished work order of the vehicle for the same schedule or code (406, naming the first). */
async function noUnfinished(db: Kysely<DB>, vehicleId: number, match: { scheduleId: number } | { dtcCode: string }): Promise<void> {
  const cond = 'scheduleId' in match ? sql`schedule_id = ${match.scheduleId}` : sql`upper(dtc_code) = ${match.dtcCode}`;
  const r = await sql<{ id: number; title: string }>`
    SELECT id, title FROM work_order WHERE vehicle_id = ${vehicleId} AND status = ANY(${UNFINISHED}::text[]) AND ${cond} ORDER BY id LIMIT 1`.execute(
    db,
  );
  if (r.rows[0]) throw new AppError(406, 'maintenance.workOrderOpen', { id: r.rows[0].id, title: r.rows[0].title });
}

/** A work order for a trouble code: the library's entry (by SPN/FMI or P-code) names it, gives its cause and its remedy. */
async function dtcBody(db: Kysely<DB>, vehicleId: number, code: string) {
  const fault = await expertFaultFor(db, parseDtc(code));
  const remedy = fault ? [fault.resolvent, fault.maintenanceMeasures].filter((s) => s && s.trim()).join('\n') : '';
  return {
    title: fault ? `${code} ${fault.name}`.slice(0, 128) : code,
    vehicleId,
    source: 'dtc',
    dtcCode: code,
    faultId: fault?.id ?? null,
    cause: fault?.cause ?? null,
    remedy: remedy || null,
  };
}

export function registerWorkOrderRoutes(fastify: FastifyInstance, { db, workOrders }: WorkOrderRouteDeps): void {
  const app = typed(fastify);
  const permission = workOrders.schema['x-entity'].permissions.create;
  const config = { permission, labels: workOrders.labelPrefix };
  const created = { 201: { type: 'object', additionalProperties: true, properties: {} } } as const;
  const create = (req: Parameters<typeof callerOf>[0], body: Record<string, unknown>): Promise<Row> =>
    createRow(db, workOrders, callerOf(req), body);

  app.post(
    '/api/vehicle/workOrder/fromSchedule',
    {
      config,
      schema: {
        tags: ['workOrder'],
        summary: "a work order for a vehicle's schedule (titled by the schedule); 406 while one is unfinished",
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['scheduleId', 'vehicleId'],
          properties: { scheduleId: id, vehicleId: id },
        },
        response: created,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { scheduleId, vehicleId } = req.body;
      const orgId = await vehicleOrg(db, caller, vehicleId);
      // The schedule must apply to the vehicle: its organisation above the vehicle's, its vehicle (if any) this one.
      const s = await sql<{ name: string }>`
        SELECT s.name FROM maintenance_schedule s JOIN organisation so ON so.id = s.org_id JOIN vehicle v ON v.id = ${vehicleId} JOIN organisation vo ON vo.id = v.org_id
        WHERE s.id = ${scheduleId} AND vo.path LIKE so.path || '%' AND (s.vehicle_id IS NULL OR s.vehicle_id = v.id)`.execute(db);
      if (!s.rows[0]) throw notFound();
      await noUnfinished(db, vehicleId, { scheduleId });
      return reply.status(201).send(await create(req, { title: s.rows[0].name, vehicleId, orgId, source: 'schedule', scheduleId }));
    },
  );

  app.post(
    '/api/vehicle/workOrder/fromAlarm/:id',
    {
      config,
      schema: {
        tags: ['workOrder'],
        summary:
          'a work order for a trouble-code (Fault) alarm, with the expert fault’s cause and remedy; 406 for another type or while one is unfinished',
        params: idParams,
        response: created,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const alarmId = req.params.id;
      const r = await sql<{ vehicle_id: number; type: string; code: string | null }>`
        SELECT a.vehicle_id, a.type, a.detail ->> 'code' AS code FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id
        WHERE a.id = ${alarmId} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      const alarm = r.rows[0];
      if (!alarm) throw notFound();
      if (alarm.type !== 'Fault' || !alarm.code) throw new AppError(406, 'maintenance.notTroubleCode');
      const code = alarm.code.trim().toUpperCase();
      const orgId = await vehicleOrg(db, caller, alarm.vehicle_id);
      await noUnfinished(db, alarm.vehicle_id, { dtcCode: code });
      return reply.status(201).send(await create(req, { ...(await dtcBody(db, alarm.vehicle_id, code)), orgId }));
    },
  );

  app.post(
    '/api/vehicle/workOrder/fromDtc',
    {
      config,
      schema: {
        tags: ['workOrder'],
        summary: 'a work order for a trouble code of a vehicle (the health report’s faults), with the expert fault’s cause and remedy',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['vehicleId', 'dtcCode'],
          properties: { vehicleId: id, dtcCode: { type: 'string', minLength: 1, maxLength: 32 } },
        },
        response: created,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { vehicleId, dtcCode } = req.body;
      const code = dtcCode.trim().toUpperCase();
      if (!code)
        throw invalid([{ field: 'dtcCode', key: 'validation.required', params: {}, labelKey: `${workOrders.labelPrefix}.dtcCode` }]);
      const orgId = await vehicleOrg(db, caller, vehicleId);
      await noUnfinished(db, vehicleId, { dtcCode: code });
      return reply.status(201).send(await create(req, { ...(await dtcBody(db, vehicleId, code)), orgId }));
    },
  );
}
