import type { FromSchema } from 'json-schema-to-ts';

/**
 * The cost figures as the cost routes answer them (server/reports/costRoutes.ts): the server's
 * route schema, the console's types (src/services/costs.ts) and the cost sheet's rows
 * (reportColumns.ts) all come from here.
 */

/** The kinds of the other costs entered or imported per vehicle and day. */
export const OTHER_COST_KINDS = ['toll', 'insurance', 'fine', 'tyre', 'parking', 'other'] as const;
export type OtherCostKind = (typeof OTHER_COST_KINDS)[number];
/** What the rows are summed by. */
export const COST_GROUPS = ['day', 'month', 'vehicle', 'model', 'org'] as const;
export type CostGroup = (typeof COST_GROUPS)[number];

const money = { type: 'number' } as const;
const day = { type: 'string', format: 'date', description: 'local day (FLEET_TIMEZONE), YYYY-MM-DD' } as const;

const FIGURES = [
  'fuel',
  'maintenance',
  'other',
  'toll',
  'insurance',
  'fine',
  'tyre',
  'parking',
  'otherKind',
  'total',
  'mileageKm',
  'perKm',
  'perDay',
] as const;

export const costFiguresSchema = {
  type: 'object',
  additionalProperties: false,
  required: FIGURES,
  properties: {
    fuel: money,
    maintenance: money,
    other: { ...money, description: 'every other cost together; each kind of it beside (the kind "other" as otherKind)' },
    toll: money,
    insurance: money,
    fine: money,
    tyre: money,
    parking: money,
    otherKind: money,
    total: money,
    mileageKm: { type: 'number' },
    perKm: { type: ['number', 'null'], description: 'total / mileageKm; null with no kilometres' },
    perDay: { ...money, description: 'total / the days of the range' },
  },
} as const;

/** One row of the summary: a day, month, vehicle, model or organisation (`key`, shown as `label`). */
export const costRowSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'label', 'vehicles', ...FIGURES],
  properties: { key: { type: 'string' }, label: { type: 'string' }, vehicles: { type: 'integer' }, ...costFiguresSchema.properties },
} as const;

export const costSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['begin', 'end', 'days', 'totals', 'rows'],
  properties: {
    begin: day,
    end: day,
    days: { type: 'integer' },
    totals: costFiguresSchema,
    rows: { type: 'array', items: costRowSchema },
  },
} as const;

export type CostFigures = FromSchema<typeof costFiguresSchema>;
export type CostRow = FromSchema<typeof costRowSchema>;
export type CostSummary = FromSchema<typeof costSummarySchema>;
