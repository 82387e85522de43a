import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Caller } from '../auth/caller';
import type { EntityModel } from './model';
import { fromClause, selectList, sortKey, whereClause, type QueryBody, type Row } from './query';
import type { DB } from '../db/tables';

const KEY = '__sortKey';

/** Parameter form of a sort value read back from the database (timestamps travel as ISO text). */
const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/**
 * Rows after (value, id) in `expr dir NULLS LAST, id dir` order. Nulls sort last both ways here, so
 * once the last row seen has a null key only null keys with a further id remain.
 */
function after(expr: string, dir: 'ASC' | 'DESC', last: { key: unknown; id: number }): RawBuilder<unknown> {
  const e = sql.raw(expr);
  const cmp = sql.raw(dir === 'ASC' ? '>' : '<');
  if (last.key === null || last.key === undefined) return sql`(${e} IS NULL AND t.id ${cmp} ${last.id})`;
  const v = param(last.key);
  return sql`(${e} ${cmp} ${v} OR (${e} = ${v} AND t.id ${cmp} ${last.id}) OR ${e} IS NULL)`;
}

/** An export body: the list's query, optionally narrowed to some of its rows (the page on screen). */
export type ExportBody = QueryBody & { ids?: readonly number[] | null };

/** The rows an export of this body holds, for its progress (one count before the first batch). */
export async function exportCount(db: Kysely<DB>, m: EntityModel, caller: Caller, body: ExportBody): Promise<number> {
  const listed = whereClause(m, caller, body.criteria);
  const where = body.ids ? sql`${listed} AND t.id = ANY (${[...body.ids]}::int[])` : listed;
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${fromClause(m)} WHERE ${where}`.execute(db);
  return r.rows[0].n;
}

/**
 * Every row the list would show for these criteria and order (only those of `ids` when given), in batches fetched by keyset (never
 * OFFSET, never all at once): each batch is its own short query, so other requests interleave and
 * memory holds one batch.
 */
export async function* keysetBatches(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  body: ExportBody,
  batchSize: number,
): AsyncGenerator<Row[]> {
  const { expr, dir } = sortKey(m, body.order);
  const listed = whereClause(m, caller, body.criteria);
  const where = body.ids ? sql`${listed} AND t.id = ANY (${[...body.ids]}::int[])` : listed;
  const order = sql.raw(`${expr} ${dir} NULLS LAST, t.id ${dir}`);
  let last: { key: unknown; id: number } | null = null;
  for (;;) {
    const cond: RawBuilder<unknown> = last ? after(expr, dir, last) : sql`TRUE`;
    const r: { rows: Row[] } =
      await sql<Row>`SELECT ${selectList(m)}, ${sql.raw(expr)} AS "${sql.raw(KEY)}" FROM ${fromClause(m)} WHERE ${where} AND ${cond} ORDER BY ${order} LIMIT ${batchSize}`.execute(
        db,
      );
    if (!r.rows.length) return;
    const tail: Row = r.rows[r.rows.length - 1];
    last = { key: tail[KEY], id: tail.id as number };
    for (const row of r.rows) delete row[KEY];
    yield r.rows;
    if (r.rows.length < batchSize) return;
  }
}
