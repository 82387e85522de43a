import type { DueCounts, MaintenanceStatus, ScheduleUsageRow } from '../../schemas/kit/maintenanceStatus';
import { call } from './http/call';

/** Maintenance due state (server/reports/maintenanceRoutes.ts) and a work order from a schedule (server/maintenance/workOrderRoutes.ts). */

export const DUE_STATES = ['overdue', 'due', 'ok'] as const;
export type DueState = (typeof DUE_STATES)[number];

/** The code that creates work orders (the work order schema's create permission). */
export const WORK_ORDER_ADD_CODE = 'workOrder-add';

/** One schedule × vehicle: what it used since its last service, what is left, its state. */
export type ScheduleUsage = ScheduleUsageRow;
export type { DueCounts, MaintenanceStatus };

export interface MaintenanceCriteria {
  orgId?: number | null;
  vehicleId?: number | null;
  state?: DueState | null;
}

/** Every schedule × vehicle in the caller's scope, overdue first, and the counts per state (of all states). */
/** Where the status rows (narrowed by state) download as an xlsx (body: `{criteria}`). */
export const MAINTENANCE_EXPORT = '/vehicle/maintenance/status/export';

export const maintenanceStatus = (criteria: MaintenanceCriteria = {}) =>
  call<MaintenanceStatus>('/vehicle/maintenance/status', { method: 'POST', data: { criteria } });

/** One vehicle's schedules with their state. */
export const vehicleMaintenance = (vehicleId: number) =>
  call<MaintenanceStatus>(`/vehicle/maintenance/vehicle/${vehicleId}`, { method: 'GET' });

/** A work order for a vehicle's schedule (titled by the schedule); refused while one is unfinished. */
export const workOrderFromSchedule = (scheduleId: number, vehicleId: number) =>
  call<{ id: number }>('/vehicle/workOrder/fromSchedule', {
    method: 'POST',
    data: { scheduleId, vehicleId },
    authority: WORK_ORDER_ADD_CODE,
  });
