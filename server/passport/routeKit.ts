import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';

export { idParams } from '../crud/routeSpec';

export const idOf = (req: FastifyRequest) => (req.params as { id: number }).id;

/** The same action, guarded by the web code or its `-app-vehicle` variant (SPEC §6). */
export const perApp = (code: string) => ({ 'obd-web': code, 'vehicle-app': `${code}-app-vehicle` });

/** Strips undefined so an update sets only what the body carries. */
export function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The paging body of SPEC §7 with a keyword and a few equality filters. */
export function pagingBody(criteria: Record<string, unknown>, sortable: string[]) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      criteria: { type: ['object', 'null'], additionalProperties: false, properties: { keyword: { type: ['string', 'null'], maxLength: 100 }, ...criteria } },
      order: {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: { direction: { type: ['string', 'null'], enum: ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend', null] }, property: { type: ['string', 'null'], enum: [...sortable, null] } },
      },
      pageIndex: { type: 'integer', minimum: 1, default: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: 10000, default: 20 },
    },
  };
}

export interface Paging {
  criteria?: Record<string, unknown> | null;
  order?: { direction?: string | null; property?: string | null } | null;
  pageIndex: number;
  pageSize: number;
}

export const descending = (p: Paging) => !!p.order?.direction && /^desc/i.test(p.order.direction);
export { likePattern } from '../crud/query';

/** The paging body of a request (defaults when there is none). */
export const pagingOf = (req: FastifyRequest) => (req.body ?? { pageIndex: 1, pageSize: 20 }) as Paging;

/** `SELECT count(*)` of a filtered query, as the `n` column. */
export const countAll = () => sql<number>`count(*)::int`.as('n');

/** One page in the page shape of every list: its rows (given limit and offset) and the exact count, fetched together. */
export async function pageOf<T>(p: Paging, rows: (limit: number, offset: number) => Promise<T[]>, count: () => Promise<{ n: number }>) {
  const [data, total] = await Promise.all([rows(p.pageSize, (p.pageIndex - 1) * p.pageSize), count()]);
  return { data, total: total.n, totalExact: true, pageIndex: p.pageIndex, pageSize: p.pageSize };
}
