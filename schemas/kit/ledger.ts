import type { FromSchema } from 'json-schema-to-ts';

/** A ledger row's figures (one day, or summed), as the report routes (server/reports) answer them. */
export const ledgerFigureProperties = {
  mileageKm: { type: 'number' },
  fuelL: { type: 'number' },
  refuelL: { type: 'number' },
  drainL: { type: 'number' },
  drivingS: { type: 'integer' },
  idleS: { type: 'integer' },
  tripCount: { type: 'integer' },
  maxSpeed: { type: 'number' },
  cost: { type: 'number' },
} as const;

export const LEDGER_FIGURES = [
  'mileageKm',
  'fuelL',
  'refuelL',
  'drainL',
  'drivingS',
  'idleS',
  'tripCount',
  'maxSpeed',
  'cost',
] as const satisfies ReadonlyArray<keyof typeof ledgerFigureProperties>;

export const ledgerFiguresSchema = {
  type: 'object',
  additionalProperties: false,
  required: LEDGER_FIGURES,
  properties: ledgerFigureProperties,
} as const;

export type LedgerFigures = FromSchema<typeof ledgerFiguresSchema>;

/** A local day (FLEET_TIMEZONE), `YYYY-MM-DD`. */
const day = { type: 'string', format: 'date', description: 'local day (FLEET_TIMEZONE), YYYY-MM-DD' } as const;

/** The vehicle a row is of: always on the rows per vehicle, on the others when one vehicle was asked for. */
const vehicleProperties = { vehicleId: { type: 'integer' }, licence: { type: 'string' } } as const;

/** The ledger summed by local day. */
export const ledgerDayRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...LEDGER_FIGURES, 'date'],
  properties: { date: day, ...vehicleProperties, ...ledgerFigureProperties },
} as const;

/** The ledger by local day and vehicle (statistics/daily), with the totals of its rows. */
export const ledgerDailySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rows', 'total'],
  properties: {
    rows: {
      type: 'array',
      items: { ...ledgerDayRowSchema, required: [...LEDGER_FIGURES, 'date', 'vehicleId', 'licence'] },
    },
    total: ledgerFiguresSchema,
  },
} as const;

/** The ledger summed by month (the days rolled up). */
export const ledgerMonthRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...LEDGER_FIGURES, 'month'],
  properties: { month: { type: 'string', description: 'YYYY-MM' }, ...vehicleProperties, ...ledgerFigureProperties },
} as const;

/** The ledger summed per vehicle over a range. */
export const ledgerVehicleRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...LEDGER_FIGURES, 'vehicleId', 'licence'],
  properties: { ...vehicleProperties, ...ledgerFigureProperties },
} as const;

/** The ledger summed per organisation (the one each vehicle belongs to). */
export const ledgerOrgRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...LEDGER_FIGURES, 'orgId', 'orgName', 'vehicles'],
  properties: { orgId: { type: 'integer' }, orgName: { type: 'string' }, vehicles: { type: 'integer' }, ...ledgerFigureProperties },
} as const;

/** The dashboard's ledger figures: today, yesterday, this month, last month and the last 7 days. */
export const ledgerHomeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['today', 'yesterday', 'month', 'lastMonth', 'last7Days'],
  properties: {
    today: ledgerFiguresSchema,
    yesterday: ledgerFiguresSchema,
    month: ledgerFiguresSchema,
    lastMonth: ledgerFiguresSchema,
    last7Days: { type: 'array', items: ledgerDayRowSchema },
  },
} as const;

/** The criteria of the ledger reports (and of the reports that take the same range): local days, both inclusive. */
export const ledgerCriteriaProperties = {
  begin: day,
  end: day,
  vehicleId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
  orgId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
} as const;

export const ledgerCriteriaSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['begin', 'end'],
  properties: ledgerCriteriaProperties,
} as const;

export type LedgerDayRow = FromSchema<typeof ledgerDayRowSchema>;
export type LedgerDaily = FromSchema<typeof ledgerDailySchema>;
export type LedgerDayVehicleRow = LedgerDaily['rows'][number];
export type LedgerMonthRow = FromSchema<typeof ledgerMonthRowSchema>;
export type LedgerVehicleRow = FromSchema<typeof ledgerVehicleRowSchema>;
export type LedgerOrgRow = FromSchema<typeof ledgerOrgRowSchema>;
export type LedgerHome = FromSchema<typeof ledgerHomeSchema>;
export type LedgerCriteria = FromSchema<typeof ledgerCriteriaSchema>;
