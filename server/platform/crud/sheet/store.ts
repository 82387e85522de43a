import { sql, type Kysely } from 'kysely';
import type { Caller } from '../../auth/caller';
import type { EntityModel } from '../model';
import type { Progress } from '../../progress/board';
import { assignments, dbValue } from '../write';
import { scopeCondition } from '../query';
import { notFound } from '../../http/errors';
import type { DB } from '../../db/tables';

type Body = Record<string, unknown>;

// PostgreSQL caps one statement at 65,535 parameters.
const MAX_PARAMS = 60_000;
/** Rows per statement at most: small enough that the progress moves and a cancel stops soon. */
const STORE_BATCH = 500;

/** What a store reports: rows stored so far, and a cancel it obeys between statements (the transaction then rolls back). */
export type StoreProgress = Pick<Progress, 'done' | 'check'>;

/** Inserts checked create bodies (each in its resolved organisation), in multi-row batches; blanks take the column default. */
export async function insertRows(trx: Kysely<DB>, m: EntityModel, caller: Caller, bodies: Body[], progress?: StoreProgress): Promise<void> {
  const props = [...m.writable.keys()].filter((p) => bodies.some((b) => b[p] !== undefined));
  const fixed: Array<[string, unknown]> = [];
  if (m.stamp) fixed.push([m.stamp.operatorCol, caller.name], [m.stamp.timeCol, new Date().toISOString()]);
  const cols = sql.raw([...props.map((p) => m.columns.get(p)!), ...fixed.map(([c]) => c)].join(', '));
  const perRow = props.length + fixed.length;
  const batch = Math.max(1, Math.min(STORE_BATCH, Math.floor(MAX_PARAMS / Math.max(1, perRow))));
  for (let i = 0; i < bodies.length; i += batch) {
    const tuples = bodies.slice(i, i + batch).map((b) => {
      const vals = [...props.map((p) => (b[p] === undefined ? sql`DEFAULT` : sql`${dbValue(b[p])}`)), ...fixed.map(([, v]) => sql`${v}`)];
      return sql`(${sql.join(vals)})`;
    });
    progress?.check();
    await sql`INSERT INTO ${sql.raw(m.table)} (${cols}) VALUES ${sql.join(tuples)}`.execute(trx);
    progress?.done(Math.min(bodies.length, i + batch));
  }
}

/** Sets the renewed fields of rows already matched (and scoped) by id. */
export async function renewRows(trx: Kysely<DB>, m: EntityModel, caller: Caller, bodies: Body[], progress?: StoreProgress): Promise<void> {
  const { fields } = m.schema['x-entity'].renew!;
  for (const [i, b] of bodies.entries()) {
    if (i % 100 === 0) {
      progress?.check();
      progress?.done(i);
    }
    const sets = fields.map((f) => sql`${sql.raw(m.columns.get(f)!)} = ${dbValue(b[f])}`);
    if (m.stamp) sets.push(sql`${sql.raw(m.stamp.operatorCol)} = ${caller.name}`, sql`${sql.raw(m.stamp.timeCol)} = now()`);
    await sql`UPDATE ${sql.raw(m.table)} SET ${sql.join([...sets, sql`updated_at = now()`])} WHERE id = ${b.id}`.execute(trx);
  }
}

/**
 * Writes an import's updates: each record's changed columns (and the stamp), scoped again to the
 * caller; a record gone meanwhile fails the whole import (the transaction rolls back).
 */
export async function updateRows(
  trx: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  updates: Array<{ id: number; changes: Body }>,
  progress?: StoreProgress,
  doneBefore = 0,
): Promise<void> {
  for (const [i, u] of updates.entries()) {
    if (i % 100 === 0) {
      progress?.check();
      progress?.done(doneBefore + i);
    }
    const sets = assignments(m, u.changes, caller).map(([c, v]) => sql`${sql.raw(c)} = ${v}`);
    const r =
      await sql`UPDATE ${sql.raw(m.table)} t SET ${sql.join([...sets, sql`updated_at = now()`])} WHERE t.id = ${u.id} AND ${scopeCondition(m, caller)} RETURNING t.id`.execute(
        trx,
      );
    if (!r.rows.length) throw notFound();
  }
  progress?.done(doneBefore + updates.length);
}
