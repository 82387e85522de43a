import type { FromSchema } from 'json-schema-to-ts';

/**
 * The answers of the trip and track routes (server/reports/tripRoutes.ts): the server's route
 * schemas and the console's types (src/services/vehicleDetail.ts) both come from here, and the
 * tests' answer check holds the server to them (server/platform/http/answerCheck.ts).
 */

const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
export const instant = { type: 'string', format: 'date-time', description: 'ISO-8601, UTC' } as const;

export const placeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['latitude', 'longitude', 'time'],
  properties: { latitude: num, longitude: num, time: instant },
} as const;

/** Who drove, by the IC card sessions: null when no card session covers it (unassigned). */
export const driverRefSchema = {
  type: ['object', 'null'],
  description: 'the driver by IC card session (driverId null: a card no driver holds); null: unassigned',
  additionalProperties: false,
  required: ['driverId', 'driverName', 'cardNo'],
  properties: { driverId: { type: ['integer', 'null'] }, driverName: { type: ['string', 'null'] }, cardNo: { type: 'string' } },
} as const;

export const tripSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'vehicleId',
    'begin',
    'end',
    'durationS',
    'distanceKm',
    'fuelL',
    'idleS',
    'maxSpeed',
    'avgSpeed',
    'open',
    'start',
    'stop',
  ],
  properties: {
    id: int,
    vehicleId: int,
    begin: instant,
    end: instant,
    durationS: int,
    distanceKm: num,
    fuelL: { type: ['number', 'null'] },
    idleS: int,
    maxSpeed: num,
    avgSpeed: num,
    open: { type: 'boolean', description: 'no stop has ended it yet' },
    start: placeSchema,
    stop: placeSchema,
    driver: { ...driverRefSchema, description: 'absent on answers that do not attribute trips to drivers' },
  },
} as const;

export const stopSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['begin', 'end', 'durationS', 'latitude', 'longitude', 'open'],
  properties: { begin: instant, end: instant, durationS: int, latitude: num, longitude: num, open: { type: 'boolean' } },
} as const;

/** A run (a trip: with its distance) or a stop (with its place). */
export const segmentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'begin', 'end', 'durationS'],
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

export const summarySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['distanceKm', 'durationS', 'maxSpeed'],
  properties: { distanceKm: num, durationS: int, maxSpeed: num },
} as const;

export const replayPointSchema = {
  type: 'array',
  description: '[time, latitude, longitude, speed, direction, acc]',
  items: { type: ['string', 'number', 'boolean'] },
  minItems: 6,
  maxItems: 6,
} as const;

export const replaySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['points', 'stops', 'summary'],
  properties: {
    points: { type: 'array', items: replayPointSchema },
    stops: { type: 'array', items: stopSchema },
    summary: summarySchema,
  },
} as const;

export type DriverRef = FromSchema<typeof driverRefSchema>;
export type TripPlace = FromSchema<typeof placeSchema>;
export type Trip = FromSchema<typeof tripSchema>;
export type Stop = FromSchema<typeof stopSchema>;
export type Segment = FromSchema<typeof segmentSchema>;
/** The schema says six scalars; their order is the tuple's (`replayPointSchema.description`). */
export type ReplayPoint = [string, number, number, number, number, boolean];
export type Replay = Omit<FromSchema<typeof replaySchema>, 'points'> & { points: ReplayPoint[] };
