import type { FastifyRequest } from 'fastify';

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
};

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
export const likePattern = (v: string) => '%' + v.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
