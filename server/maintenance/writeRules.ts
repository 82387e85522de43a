/**
 * The maintenance entities' own rules beyond their schemas, as body checks of the generic CRUD (the
 * body merged over the stored row on update, each row of an import): a schedule needs a trigger;
 * a work order closed needs its service date, and its odometer cannot go below the one recorded at
 * the vehicle's last service before it.
 */

import { sql } from 'kysely';
import type { BodyCheck } from '../platform/crud/routes';
import type { FieldError } from '../../schemas/kit/errors';
import { hasTrigger } from './dueStatus';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export const checkScheduleBody: BodyCheck = (body) =>
  hasTrigger({ intervalKm: num(body.intervalKm), intervalHours: num(body.intervalHours), intervalDays: num(body.intervalDays) })
    ? []
    : [
        {
          field: 'intervalKm',
          key: 'validation.maintenance.noTrigger',
          params: {},
          labelKey: 'entity.maintenanceSchedule.fields.intervalKm',
        },
      ];

export const checkWorkOrderBody: BodyCheck = async (body, { db }) => {
  const errors: FieldError[] = [];
  const serviceDate = typeof body.serviceDate === 'string' ? body.serviceDate : null;
  if (body.status === 'done' && !serviceDate)
    errors.push({
      field: 'serviceDate',
      key: 'validation.maintenance.serviceDateRequired',
      params: {},
      labelKey: 'entity.workOrder.fields.serviceDate',
    });
  const odometer = num(body.serviceOdometerKm);
  const vehicleId = num(body.vehicleId);
  if (odometer !== null && vehicleId !== null) {
    // The highest reading of the vehicle's other done work orders serviced on or before this one.
    const r = await sql<{ last: number | null }>`
      SELECT max(service_odometer_km)::float8 AS last FROM work_order
      WHERE vehicle_id = ${vehicleId} AND status = 'done' AND service_odometer_km IS NOT NULL
        AND id <> ${num(body.id) ?? 0} AND (${serviceDate}::date IS NULL OR service_date <= ${serviceDate}::date)`.execute(db);
    const last = r.rows[0]?.last ?? null;
    if (last !== null && odometer < last)
      errors.push({
        field: 'serviceOdometerKm',
        key: 'validation.maintenance.odometerBelowLast',
        params: { limit: last },
        labelKey: 'entity.workOrder.fields.serviceOdometerKm',
      });
  }
  return errors;
};
