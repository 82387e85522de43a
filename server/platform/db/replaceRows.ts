/**
 * A deriver's rows of a pass replaced in one statement: per table, the rows found are upserted on
 * the table's unique key (a row found again unchanged is left as it is, not rewritten), and the
 * rows the windows own that were not found again are deleted. One round trip instead of a delete
 * and an insert per table, each of which waited on the server's event loop under load (README,
 * Alarms), and one parameter per column (unnest) instead of one per value.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from './tables';

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
export const alongside = (statements: ReadonlyArray<RawBuilder<unknown>>, prefix = ''): RawBuilder<unknown>[] =>
  statements.map((a, i) => sql`${sql.raw(`${prefix}also${i}`)} AS (${a})`);

/**
 * A write held back to be sent as CTEs of a later statement of the same transaction: its CTEs,
 * named with the prefix given so that several fit in one statement. It runs in that statement's
 * snapshot, so only a write whose tables nothing in between reads may be held.
 */
export type HeldWrite = (prefix: string) => RawBuilder<unknown>[];

const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** A quoted identifier, as Kysely's PostgreSQL compiler writes one. */
const id = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One statement's CTEs for a row set: its rows (n), the owned rows no longer found (d), the upsert (u).
 * The text around the rows' arrays is written as plain SQL rather than assembled from Kysely's
 * identifier and join nodes: names and types come from the code, and compiling those nodes for every
 * column of every pass was several per cent of a live pass's CPU (docs/benchmarks.md, Derivation pace).
 */
function parts(set: AnyRowSet, i: number, windows: RawBuilder<unknown> | null, prefix: string): RawBuilder<unknown>[] {
  const n = `${prefix}n${i}`;
  const cols = set.columns.map(([c]) => id(c)).join(', ');
  const arrays = sql.join(
    set.columns.map(([c, type]) =>
      isArrayType(type)
        ? sql`${set.rows.map((r) => (r[c] == null ? null : JSON.stringify(r[c])))}::jsonb[]`
        : sql`${set.rows.map((r) => param(r[c]))}::${sql.raw(type)}[]`,
    ),
  );
  const values = set.columns
    .map(([c, type]) =>
      isArrayType(type)
        ? `CASE WHEN x.${id(c)} IS NULL THEN NULL ELSE ARRAY(SELECT e FROM jsonb_array_elements_text(x.${id(c)}) WITH ORDINALITY AS a(e, i) ORDER BY i)::${type} END AS ${id(c)}`
        : `x.${id(c)}`,
    )
    .join(', ');
  const table = id(set.table);
  const rest = set.columns.filter(([c]) => !set.key.includes(c)).map(([c]) => id(c));
  const out = [sql`${sql.raw(`${n} AS (SELECT ${values} FROM unnest(`)}${arrays}${sql.raw(`) AS x(${cols}))`)}`];
  if (set.owned) {
    if (!windows) throw new Error(`rows of ${set.table} owned by windows, and no windows given`);
    const same = set.key.map((k) => `${n}.${id(k)} = t.${id(k)}`).join(' AND ');
    out.push(
      sql`${sql.raw(`${prefix}d${i} AS (DELETE FROM ${table} t USING ${prefix}w w WHERE `)}${set.owned}${sql.raw(` AND NOT EXISTS (SELECT 1 FROM ${n} WHERE ${same}))`)}`,
    );
  }
  if (set.rows.length) {
    const update = rest.length
      ? `DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')}
          WHERE (${rest.map((c) => `${table}.${c}`).join(', ')}) IS DISTINCT FROM (${rest.map((c) => `excluded.${c}`).join(', ')})`
      : 'DO NOTHING';
    out.push(
      sql.raw(
        `${prefix}u${i} AS (INSERT INTO ${table} (${cols}) SELECT ${cols} FROM ${n} ON CONFLICT (${set.key.map(id).join(', ')}) ${update})`,
      ),
    );
  }
  return out;
}

/**
 * Replaces the row sets in one statement. `windows`: a FROM item aliased `w` (rangesTable) that the
 * sets' `owned` conditions refer to. The rows of one set must lie inside the windows that own them
 * (a key found outside would be updated, not deleted), as every deriver's rows of a window do.
 * `also`: further data-modifying statements of the deriver on other tables, run in the same one.
 * `hold`: where to hand the statement instead of running it now (HeldWrite): each round trip costs
 * the process more CPU than the rows it carries (docs/benchmarks.md, "CPU per position derived").
 */
export async function replaceRows(
  trx: Kysely<DB>,
  windows: RawBuilder<unknown> | null,
  sets: readonly AnyRowSet[],
  also: ReadonlyArray<RawBuilder<unknown>> = [],
  hold?: (write: HeldWrite) => void,
): Promise<void> {
  const ctes = (prefix: string) => {
    const own = [...sets.flatMap((s, i) => parts(s, i, windows, prefix)), ...alongside(also, prefix)];
    return own.length && windows ? [sql`${sql.raw(`${prefix}w`)} AS (SELECT * FROM ${windows})`, ...own] : own;
  };
  if (hold) hold(ctes);
  else {
    const all = ctes('');
    if (all.length) await sql`WITH ${sql.join(all)} SELECT 1`.execute(trx);
  }
}
