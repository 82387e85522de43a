/**
 * Paging for every list: the one body schema (schemas/kit/paging.ts, shared with the console), the
 * one order parser and the one count policy.
 *
 * Count policy: a page that is not full tells the total without counting (unless it is empty past
 * the end). Otherwise counting stops after max(COUNT_CAP, the end of the requested page) rows: an
 * exact count of a large table costs a scan of all of it on every page. Past the cap the page
 * answers `totalExact: false` and `total` is a lower bound.
 */
import type { FastifyRequest } from 'fastify';
import { sql, type Expression, type Kysely } from 'kysely';
import type { Page } from '../../schemas/kit/entity';
import type { DB } from './db/tables';

export { MAX_PAGE_SIZE, pagingBodySchema } from '../../schemas/kit/paging';
export type { Page };

export const COUNT_CAP = 10_000;

export type Direction = 'ASC' | 'DESC';

export interface PageOrder {
  direction?: string | null;
  property?: string | null;
}

/** A paging body as the route's schema let it through (defaults applied). */
export interface Paging {
  criteria?: Record<string, unknown> | null;
  order?: PageOrder | null;
  pageIndex: number;
  pageSize: number;
}

/** The paging body of a request (the first page of 20 when there is none). */
export const pagingOf = (req: FastifyRequest): Paging => (req.body ?? { pageIndex: 1, pageSize: 20 }) as Paging;

/** Descending for DESC, desc and descend (the console's table); ascending otherwise. */
export const directionOf = (order: PageOrder | null | undefined): Direction =>
  order?.direction && /^desc/i.test(order.direction) ? 'DESC' : 'ASC';

/**
 * The sort of a body's order: the column of a known `order.property` in the body's direction, else
 * the fallback column — in the fallback's direction when it has one, in the body's otherwise.
 */
export function sortOf<C extends string>(
  order: PageOrder | null | undefined,
  columns: Readonly<Record<string, C>>,
  fallback: { column: C; direction?: Direction },
): { column: C; direction: Direction } {
  const column = order?.property && Object.hasOwn(columns, order.property) ? columns[order.property] : undefined;
  if (column) return { column, direction: directionOf(order) };
  return { column: fallback.column, direction: fallback.direction ?? directionOf(order) };
}

/** Kysely's spelling of a direction. */
export const kyselyDirection = (d: Direction): 'asc' | 'desc' => (d === 'DESC' ? 'desc' : 'asc');

/** The rows to skip before a page. */
export const offsetOf = (p: Pick<Paging, 'pageIndex' | 'pageSize'>): number => (p.pageIndex - 1) * p.pageSize;

/**
 * A page of `data` (fetched at the body's pageIndex and pageSize) with its total by the count
 * policy above; `countUpTo(limit)` counts the matching rows, stopping after `limit`.
 */
export async function pageOf<T>(
  p: Pick<Paging, 'pageIndex' | 'pageSize'>,
  data: T[],
  countUpTo: (limit: number) => Promise<number>,
): Promise<Page<T>> {
  const { pageIndex, pageSize } = p;
  const offset = offsetOf(p);
  if (data.length < pageSize && (data.length > 0 || offset === 0))
    return { data, total: offset + data.length, totalExact: true, pageIndex, pageSize };
  const limit = Math.max(COUNT_CAP, offset + pageSize);
  const n = await countUpTo(limit + 1);
  return { data, total: Math.min(n, limit), totalExact: n <= limit, pageIndex, pageSize };
}

/** Counts the rows of a query (a Kysely select or raw SQL selecting anything), stopping after `limit`. */
export async function countUpTo(db: Kysely<DB>, rows: Expression<unknown>, limit: number): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows} LIMIT ${limit}) c`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** A `SELECT 1` column: what the count policy counts of a list's Kysely query (`q.select(ONE)`). */
export const ONE = sql<number>`1`.as('one');

/**
 * One page of a Kysely list: its rows (given limit and offset), then the total by the count policy,
 * counting `counted` (the list's filtered query selecting ONE).
 */
export async function listPage<T>(
  db: Kysely<DB>,
  p: Paging,
  rows: (limit: number, offset: number) => Promise<T[]>,
  counted: Expression<unknown>,
): Promise<Page<T>> {
  return pageOf(p, await rows(p.pageSize, offsetOf(p)), (limit) => countUpTo(db, counted, limit));
}

/** The Kysely sort of a body's order among `columns`, else `fallback` (in the body's direction, or in the one given). */
export function sortBy<C extends string>(
  p: Paging,
  columns: Readonly<Record<string, C>>,
  fallback: C,
  direction?: Direction,
): { col: C; dir: 'asc' | 'desc' } {
  const s = sortOf(p.order, columns, { column: fallback, direction });
  return { col: s.column, dir: kyselyDirection(s.direction) };
}
