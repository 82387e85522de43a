import type { Row } from './entity';
import { call } from './http/call';
import { monitorItemsOf, type MonitorColumnsAnswer, type MonitorCriteria, type MonitorItem } from '../../schemas/kit/monitor';

/** The live map's calls (server/reports dashboardRoutes, tripRoutes; server/telematics/live). */

export type { MonitorItem, MonitorCriteria, LivePosition, LiveMessage } from '../../schemas/kit/monitor';

export interface MonitorAnswer {
  data: MonitorItem[];
  total: number;
  asOf: string;
  /** False when asked `since` and only the vehicles changed after it are listed (with `removed`). */
  full: boolean;
  removed: number[];
}

/**
 * Every vehicle in scope with its latest state, or with `criteria.since` (an earlier answer's
 * asOf) only those changed after it. Asked in the compact form (one array per field), which costs
 * the server and the browser a fraction of ten thousand objects, and handed on as items.
 */
export async function queryMonitor(criteria: MonitorCriteria = {}): Promise<MonitorAnswer> {
  const r = await call<MonitorColumnsAnswer>('/vehicle/monitor/query', { method: 'POST', data: { criteria, format: 'columns' } });
  return { data: monitorItemsOf(r.columns), total: r.total, asOf: r.asOf, full: r.full ?? true, removed: r.removed ?? [] };
}

/** One vehicle's row of the CRUD (its driver's name among the rest). */
export const vehicleById = (id: number) => call<Row>(`/vehicle/vehicle/queryById/${id}`, { method: 'GET', skipErrorHandler: true });
