/** Request and answer schemas of the report routes (OpenAPI at /api/docs and validation). */

import { MAX_PAGE_SIZE } from '../../schemas/kit/entity';
import { NONE } from '../platform/auth/caller';
import { idParam, int, num } from '../platform/crud/routeSpec';

export const instant = { type: 'string', format: 'date-time', description: 'ISO-8601, UTC' } as const;
export const date = { type: 'string', format: 'date', description: 'local day (FLEET_TIMEZONE), YYYY-MM-DD' } as const;
const nullableNum = { type: ['number', 'null'] } as const;

export const place = {
  type: 'object',
  properties: { latitude: num, longitude: num, time: instant },
} as const;

/** Who drove, by the IC card sessions: null when no card session covers it (unassigned). */
export const driverRefSchema = {
  type: ['object', 'null'],
  description: 'the driver by IC card session (driverId null: a card no driver holds); null: unassigned',
  properties: { driverId: { type: ['integer', 'null'] }, driverName: { type: ['string', 'null'] }, cardNo: { type: 'string' } },
} as const;

export const tripSchema = {
  type: 'object',
  properties: {
    id: int,
    vehicleId: int,
    begin: instant,
    end: instant,
    durationS: int,
    distanceKm: num,
    fuelL: nullableNum,
    idleS: int,
    maxSpeed: num,
    avgSpeed: num,
    open: { type: 'boolean', description: 'no stop has ended it yet' },
    start: place,
    stop: place,
    driver: driverRefSchema,
  },
} as const;

export const stopSchema = {
  type: 'object',
  properties: { begin: instant, end: instant, durationS: int, latitude: num, longitude: num, open: { type: 'boolean' } },
} as const;

export const segmentSchema = {
  type: 'object',
  properties: {
    kind: { enum: ['run', 'stop'] },
    begin: instant,
    end: instant,
    durationS: int,
    distanceKm: num,
    latitude: num,
    longitude: num,
  },
} as const;

export const summarySchema = { type: 'object', properties: { distanceKm: num, durationS: int, maxSpeed: num } } as const;

export const replayPointSchema = {
  type: 'array',
  description: '[time, latitude, longitude, speed, direction, acc]',
  items: { type: ['string', 'number', 'boolean'] },
  minItems: 6,
  maxItems: 6,
} as const;

export const rangeBody = (extra: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['begin', 'end', ...required],
  properties: { begin: instant, end: instant, ...extra },
});

export const pagingBody = (criteria: Record<string, unknown>, requiredCriteria: string[], sortable: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required: ['criteria'],
  properties: {
    criteria: { type: 'object', additionalProperties: false, required: requiredCriteria, properties: criteria },
    order: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        direction: { enum: ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend', null] },
        property: { enum: [...sortable, null] },
      },
    },
    pageIndex: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  },
});

/** `{criteria: {begin, end, vehicleId?, orgId?, …}}` of the ledger reports. */
export const ledgerBody = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: ['criteria'],
  properties: {
    criteria: {
      type: 'object',
      additionalProperties: false,
      required: ['begin', 'end'],
      properties: {
        begin: date,
        end: date,
        vehicleId: { ...idParam, type: ['integer', 'null'] },
        orgId: { ...idParam, type: ['integer', 'null'] },
        ...extra,
      },
    },
  },
});

export const ledgerFigures = {
  mileageKm: num,
  fuelL: num,
  refuelL: num,
  drainL: num,
  drivingS: int,
  idleS: int,
  tripCount: int,
  maxSpeed: num,
  cost: num,
} as const;

export const ledgerRow = (key: 'date' | 'month' | null) => ({
  type: 'object',
  properties: {
    ...(key === 'date' ? { date } : key === 'month' ? { month: { type: 'string', description: 'YYYY-MM' } } : {}),
    vehicleId: int,
    licence: { type: 'string' },
    ...ledgerFigures,
  },
});

export const listOf = (item: Record<string, unknown>) => ({ type: 'array', items: item });

/**
 * The options of the report routes of one tag: open to every signed-in caller (the scope limits the
 * rows), `labels` naming the fields in validation messages, and the request and 200 answer schemas.
 */
export const reportRoutes =
  (labels: string, tag: string) => (summary: string, body: Record<string, unknown>, answer: Record<string, unknown>) => ({
    config: { permission: NONE, labels },
    schema: { tags: [tag], summary, body, response: { 200: answer } },
  });
