import { call } from './http/call';
import type { LedgerCriteria } from './reports';

/** The true cost of the vehicles: fuel, maintenance and other costs (server/reports/costRoutes.ts). */

export const COST_GROUPS = ['day', 'month', 'vehicle', 'model', 'org'] as const;
export type CostGroup = (typeof COST_GROUPS)[number];

export interface CostFigures {
  fuel: number;
  maintenance: number;
  /** Every other cost together (tolls, insurance, fines, tyres, parking, other). */
  other: number;
  total: number;
  mileageKm: number;
  /** total / mileageKm; null with no kilometres. */
  perKm: number | null;
  perDay: number;
}

export type CostRow = CostFigures & { key: string; label: string; vehicles: number };

export interface CostSummary {
  begin: string;
  end: string;
  days: number;
  totals: CostFigures;
  rows: CostRow[];
}

export type CostCriteria = LedgerCriteria & { by: CostGroup };

/** The totals of the range and its rows grouped `by`. */
/** Where the costs by vehicle download as an xlsx (body: `{criteria}` without `by`). */
export const COST_EXPORT = '/vehicle/cost/summary/export';

export const costSummary = (criteria: CostCriteria) =>
  call<CostSummary>('/vehicle/cost/summary', { method: 'POST', data: { criteria }, quiet: true });
