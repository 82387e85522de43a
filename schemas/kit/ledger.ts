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
