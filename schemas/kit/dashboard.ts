import type { FromSchema } from 'json-schema-to-ts';

/**
 * The dashboard's answers (server/reports/dashboardRoutes.ts: index/vehicleCount, index/vehicleDis):
 * the server's route schemas and the console's types (src/services/reports.ts) both come from here.
 */

const int = { type: 'integer' } as const;

export const vehicleCountsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['total', 'online', 'offline', 'moving', 'parked', 'alarming', 'serviceExpiring'],
  properties: {
    total: int,
    online: int,
    offline: int,
    moving: int,
    parked: int,
    alarming: int,
    serviceExpiring: int,
  },
} as const;

/** One group of the distribution: its key (an id, a status, online/offline), its name and how many vehicles. */
export const bucketSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'name', 'count'],
  properties: { key: { type: ['string', 'integer', 'null'] }, name: { type: ['string', 'null'] }, count: int },
} as const;

const buckets = { type: 'array', items: bucketSchema } as const;

export const vehicleDistributionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['byOrg', 'byBrand', 'byStatus', 'byOnline'],
  properties: { byOrg: buckets, byBrand: buckets, byStatus: buckets, byOnline: buckets },
} as const;

export type VehicleCounts = FromSchema<typeof vehicleCountsSchema>;
export type Bucket = FromSchema<typeof bucketSchema>;
export type VehicleDistribution = FromSchema<typeof vehicleDistributionSchema>;
