import type { FromSchema } from 'json-schema-to-ts';

/**
 * The maintenance status answers (server/reports/maintenanceRoutes.ts): each schedule × vehicle
 * with its usage and due state, and the counts per state. The server's route schemas and the
 * console's types (src/services/maintenance.ts) both come from here.
 */

export const DUE_STATES = ['ok', 'due', 'overdue'] as const;
export const DUE_TRIGGERS = ['km', 'hours', 'days'] as const;

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const nullableNum = { type: ['number', 'null'] } as const;

const USAGE_FIELDS = [
  'scheduleId',
  'scheduleName',
  'vehicleId',
  'licence',
  'orgId',
  'state',
  'trigger',
  'baseDay',
  'dueDay',
  'lastWorkOrderId',
  'odometerKm',
  'usedKm',
  'usedHours',
  'usedDays',
  'intervalKm',
  'intervalHours',
  'intervalDays',
  'remainingKm',
  'remainingHours',
  'remainingDays',
] as const;

/** One schedule × vehicle: what it used since its last service, what is left, its state. */
export const scheduleUsageSchema = {
  type: 'object',
  additionalProperties: false,
  required: USAGE_FIELDS,
  properties: {
    scheduleId: int,
    scheduleName: str,
    vehicleId: int,
    licence: str,
    orgId: int,
    state: { type: 'string', enum: DUE_STATES },
    trigger: { type: ['string', 'null'], enum: [...DUE_TRIGGERS, null] },
    baseDay: { type: 'string', format: 'date' },
    dueDay: { type: ['string', 'null'], format: 'date' },
    lastWorkOrderId: { type: ['integer', 'null'] },
    odometerKm: nullableNum,
    usedKm: nullableNum,
    usedHours: nullableNum,
    usedDays: int,
    intervalKm: nullableNum,
    intervalHours: nullableNum,
    intervalDays: { type: ['integer', 'null'] },
    remainingKm: nullableNum,
    remainingHours: nullableNum,
    remainingDays: nullableNum,
  },
} as const;

export const dueCountsSchema = {
  type: 'object',
  additionalProperties: false,
  required: DUE_STATES,
  properties: { ok: int, due: int, overdue: int },
} as const;

export const maintenanceStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['counts', 'data'],
  properties: { counts: dueCountsSchema, data: { type: 'array', items: scheduleUsageSchema } },
} as const;

export type ScheduleUsageRow = FromSchema<typeof scheduleUsageSchema>;
export type DueCounts = FromSchema<typeof dueCountsSchema>;
export type MaintenanceStatus = FromSchema<typeof maintenanceStatusSchema>;
