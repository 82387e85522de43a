import { sql, type Kysely } from 'kysely';
import type { FieldError } from '../../schemas/kit/errors';
import type { Caller } from '../auth/caller';
import { invalid, notFound, refNotFound } from '../http/errors';
import type { EntityModel } from './model';
import { getOne, scopeCondition, type Row } from './query';

type Body = Record<string, unknown>;

/** Database value of a property: JSON columns are sent as text, the rest as they are. */
export function dbValue(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

/** Relations must point at rows the caller can see (and organisations inside their subtree). */
export async function checkRefs(db: Kysely<unknown>, m: EntityModel, caller: Caller, body: Body): Promise<void> {
  const errors: FieldError[] = [];
  for (const r of m.refs) {
    const v = body[r.prop];
    if (v === null || v === undefined) continue;
    const scope = r.isOrganisation
      ? sql`path LIKE ${caller.orgPath + '%'}`
      : r.orgScoped
        ? sql`org_id IN (SELECT id FROM organisation WHERE path LIKE ${caller.orgPath + '%'})`
        : sql`TRUE`;
    const hit = await sql`SELECT 1 FROM ${sql.raw(r.table)} WHERE id = ${v} AND ${scope}`.execute(db);
    if (!hit.rows.length) errors.push(refNotFound(r.prop, m.labelPrefix));
  }
  if (errors.length) throw invalid(errors);
}

/** Column/value pairs a create or update writes: the body's writable properties, then the stamp. */
export function assignments(m: EntityModel, body: Body, caller: Caller): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [...m.writable.keys()].filter((p) => body[p] !== undefined).map((p) => [m.columns.get(p)!, dbValue(body[p])]);
  if (m.stamp) pairs.push([m.stamp.operatorCol, caller.name], [m.stamp.timeCol, new Date().toISOString()]);
  return pairs;
}

export async function createRow(db: Kysely<unknown>, m: EntityModel, caller: Caller, input: Body): Promise<Row> {
  const body: Body = { ...input };
  if (m.orgScoped && (body.orgId === undefined || body.orgId === null)) body.orgId = caller.orgId;
  await checkRefs(db, m, caller, body);
  const pairs = assignments(m, body, caller);
  const cols = sql.raw(pairs.map(([c]) => c).join(', '));
  const vals = sql.join(pairs.map(([, v]) => sql`${v}`));
  const r = await sql<{ id: number }>`INSERT INTO ${sql.raw(m.table)} (${cols}) VALUES (${vals}) RETURNING id`.execute(db);
  return (await getOne(db, m, caller, r.rows[0].id))!;
}

export async function updateRow(db: Kysely<unknown>, m: EntityModel, caller: Caller, id: number, input: Body): Promise<Row> {
  const body: Body = { ...input };
  // orgId is NOT NULL: clearing it means "leave it where it is".
  if (m.orgScoped && body.orgId === null) delete body.orgId;
  await checkRefs(db, m, caller, body);
  const sets = assignments(m, body, caller).map(([c, v]) => sql`${sql.raw(c)} = ${v}`);
  sets.push(sql`updated_at = now()`);
  const r = await sql<{ id: number }>`UPDATE ${sql.raw(m.table)} t SET ${sql.join(sets)} WHERE t.id = ${id} AND ${scopeCondition(m, caller)} RETURNING t.id`.execute(db);
  if (!r.rows.length) throw notFound();
  return (await getOne(db, m, caller, id))!;
}

export async function deleteRow(db: Kysely<unknown>, m: EntityModel, caller: Caller, id: number): Promise<void> {
  const r = await sql`DELETE FROM ${sql.raw(m.table)} t WHERE t.id = ${id} AND ${scopeCondition(m, caller)} RETURNING t.id`.execute(db);
  if (!r.rows.length) throw notFound();
}
