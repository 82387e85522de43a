import type { FromSchema } from 'json-schema-to-ts';
import { LEDGER_FIGURES, ledgerFigureProperties } from './ledger';
import { monitorItemSchema } from './monitor';
import { tripSchema } from './trips';

/**
 * One vehicle's report (server/reports/dashboardRoutes.ts: `vehicleReport/{id}`,
 * `index/vehicleDetail/{id}`): the vehicle, its latest state, today's and this month's ledger and
 * its last trip. The route's schema and the console's type (src/services/vehicleDetail.ts) come from here.
 */

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

export const vehicleReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['vehicle', 'state', 'today', 'month', 'lastTrip'],
  properties: {
    vehicle: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'licence', 'orgId', 'orgName'],
      properties: { id: int, licence: str, orgId: int, orgName: str },
    },
    state: { anyOf: [{ type: 'null' }, monitorItemSchema] },
    today: {
      type: 'object',
      additionalProperties: false,
      required: ['date', ...LEDGER_FIGURES],
      properties: { date: { type: 'string', format: 'date' }, ...ledgerFigureProperties },
    },
    month: {
      type: 'object',
      additionalProperties: false,
      required: ['month', ...LEDGER_FIGURES],
      properties: { month: { type: 'string', description: 'YYYY-MM' }, ...ledgerFigureProperties },
    },
    lastTrip: { anyOf: [{ type: 'null' }, tripSchema] },
  },
} as const;

export type VehicleReport = FromSchema<typeof vehicleReportSchema>;
