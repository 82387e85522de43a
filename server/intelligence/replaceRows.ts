/**
 * A deriver's rows of a pass replaced in one statement: per table, the rows found are upserted on
 * the table's unique key (a row found again unchanged is left as it is, not rewritten), and the
 * rows the windows own that were not found again are deleted. One round trip instead of a delete
 * and an insert per table, each of which waited on the server's event loop under load (README,
 * Alarms), and one parameter per column (unnest) instead of one per value.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';

/**
 * A column of the rows: its name and its PostgreSQL type (the unnest parameter is an array of it).
 * An array type ('text[]') cannot be one element of such an array (unnest would flatten it): its
 * values travel as JSON and are turned back into the array in the statement.
 */
export type Column<R> = readonly [name: keyof R & string, type: string];

const isArrayType = (type: string) => type.endsWith('[]');

export interface RowSet<R> {
  table: keyof DB & string;
  /** Every column the rows give: a value left out is stored as NULL, not as the column's default. */
  columns: ReadonlyArray<Column<R>>;
  /** A unique key of the table (the upsert's conflict target). */
  key: ReadonlyArray<keyof R & string>;
  rows: readonly R[];
  /**
   * Which rows of the table (alias `t`) the windows (alias `w`, the statement's `windows`) own: those
   * not among `rows` are deleted. Absent: none are (every key replaced is among the rows).
   */
  owned?: RawBuilder<unknown>;
}

/** A row set of any table, as the statement takes them. */
export type AnyRowSet = RowSet<Record<string, unknown>>;

/** A typed row set, for replaceRows (its column names checked against the rows' type here). */
export const rowSet = <R extends object>(set: RowSet<R>): AnyRowSet => set as unknown as AnyRowSet;

/** Statements run as CTEs of another (`also0 AS (…)`, …): each its own rows, so one round trip serves them all. */
export const alongside = (statements: ReadonlyArray<RawBuilder<unknown>>): RawBuilder<unknown>[] =>
  statements.map((a, i) => sql`${sql.raw(`also${i}`)} AS (${a})`);

const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** One statement's CTEs for a row set: its rows (n), the owned rows no longer found (d), the upsert (u). */
function parts(set: AnyRowSet, i: number, windows: RawBuilder<unknown> | null): RawBuilder<unknown>[] {
  const n = sql.raw(`n${i}`);
  const cols = sql.join(set.columns.map(([c]) => sql.id(c)));
  const arrays = sql.join(
    set.columns.map(([c, type]) =>
      isArrayType(type)
        ? sql`${set.rows.map((r) => (r[c] == null ? null : JSON.stringify(r[c])))}::jsonb[]`
        : sql`${set.rows.map((r) => param(r[c]))}::${sql.raw(type)}[]`,
    ),
  );
  const values = sql.join(
    set.columns.map(([c, type]) =>
      isArrayType(type)
        ? sql`CASE WHEN x.${sql.id(c)} IS NULL THEN NULL ELSE ARRAY(SELECT e FROM jsonb_array_elements_text(x.${sql.id(c)}) WITH ORDINALITY AS a(e, i) ORDER BY i)::${sql.raw(type)} END AS ${sql.id(c)}`
        : sql`x.${sql.id(c)}`,
    ),
  );
  const table = sql.table(set.table);
  const rest = set.columns.filter(([c]) => !set.key.includes(c));
  const out = [sql`${n} AS (SELECT ${values} FROM unnest(${arrays}) AS x(${cols}))`];
  if (set.owned) {
    if (!windows) throw new Error(`rows of ${set.table} owned by windows, and no windows given`);
    const same = sql.join(
      set.key.map((k) => sql`${n}.${sql.id(k)} = t.${sql.id(k)}`),
      sql` AND `,
    );
    out.push(
      sql`${sql.raw(`d${i}`)} AS (DELETE FROM ${table} t USING w WHERE ${set.owned} AND NOT EXISTS (SELECT 1 FROM ${n} WHERE ${same}))`,
    );
  }
  if (set.rows.length) {
    const excluded = (c: string) => sql`excluded.${sql.id(c)}`;
    const current = (c: string) => sql`${table}.${sql.id(c)}`;
    const update = rest.length
      ? sql`DO UPDATE SET ${sql.join(rest.map(([c]) => sql`${sql.id(c)} = ${excluded(c)}`))}
          WHERE (${sql.join(rest.map(([c]) => current(c)))}) IS DISTINCT FROM (${sql.join(rest.map(([c]) => excluded(c)))})`
      : sql`DO NOTHING`;
    out.push(
      sql`${sql.raw(`u${i}`)} AS (INSERT INTO ${table} (${cols}) SELECT ${cols} FROM ${n} ON CONFLICT (${sql.join(set.key.map((k) => sql.id(k)))}) ${update})`,
    );
  }
  return out;
}

/**
 * Replaces the row sets in one statement. `windows`: a FROM item aliased `w` (rangesTable) that the
 * sets' `owned` conditions refer to. The rows of one set must lie inside the windows that own them
 * (a key found outside would be updated, not deleted), as every deriver's rows of a window do.
 * `also`: further data-modifying statements of the deriver on other tables, run in the same one.
 */
export async function replaceRows(
  trx: Kysely<DB>,
  windows: RawBuilder<unknown> | null,
  sets: readonly AnyRowSet[],
  also: ReadonlyArray<RawBuilder<unknown>> = [],
): Promise<void> {
  const ctes = [...sets.flatMap((s, i) => parts(s, i, windows)), ...alongside(also)];
  if (!ctes.length) return;
  const w = windows ? [sql`w AS (SELECT * FROM ${windows})`] : [];
  await sql`WITH ${sql.join([...w, ...ctes])} SELECT 1`.execute(trx);
}
