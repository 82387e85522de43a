import { call } from './http/call';
import type { CostGroup, CostSummary } from '../../schemas/kit/costs';
import type { LedgerCriteria } from './reports';

/** The true cost of the vehicles: fuel, maintenance and other costs (server/reports/costRoutes.ts). */

export { COST_GROUPS, type CostFigures, type CostGroup, type CostRow, type CostSummary } from '../../schemas/kit/costs';

export type CostCriteria = LedgerCriteria & { by: CostGroup };

/** The totals of the range and its rows grouped `by`. */
/** Where the costs by vehicle download as an xlsx (body: `{criteria}` without `by`). */
export const COST_EXPORT = '/vehicle/cost/summary/export';

export const costSummary = (criteria: CostCriteria) =>
  call<CostSummary>('/vehicle/cost/summary', { method: 'POST', data: { criteria }, quiet: true });
