import { sql, type Kysely } from 'kysely';
import type { FieldError } from '../../../schemas/kit/errors';
import type { Caller } from '../auth/caller';
import { AppError, invalid, notFound, refNotFound } from '../http/errors';
import { tenantPath } from '../../../schemas/kit/entity';
import type { EntityModel } from './model';
import { getOne, refScope, scopeCondition, type Row } from './query';
import type { DB } from '../db/tables';
import { pathUnder } from '../scope';

type Body = Record<string, unknown>;

/** Database value of a property: JSON columns are sent as text, the rest as they are. */
export function dbValue(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

/** Relations must point at rows the caller can see (and organisations inside their subtree). */
export async function checkRefs(db: Kysely<DB>, m: EntityModel, caller: Caller, body: Body): Promise<void> {
  const errors: FieldError[] = [];
  for (const r of m.refs) {
    const v = body[r.prop];
    if (v === null || v === undefined) continue;
    const hit = await sql`SELECT 1 FROM ${sql.raw(r.table)} WHERE id = ${v} AND ${refScope(r, caller)}`.execute(db);
    if (!hit.rows.length) errors.push(refNotFound(r.prop, m.labelPrefix));
  }
  if (errors.length) throw invalid(errors);
}

/** Column/value pairs a create or update writes: the body's writable properties, then the stamp. */
export function assignments(m: EntityModel, body: Body, caller: Caller): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [...m.writable.keys()]
    .filter((p) => body[p] !== undefined)
    .map((p) => [m.columns.get(p)!, dbValue(body[p])]);
  if (m.stamp) pairs.push([m.stamp.operatorCol, caller.name], [m.stamp.timeCol, new Date().toISOString()]);
  return pairs;
}

/** `uniqueInTenant` properties: no other row of the tenant's tree holds the same value (406 naming the field). */
export async function checkTenantUnique(
  db: Kysely<DB>,
  m: EntityModel,
  body: Body,
  orgId: unknown,
  exceptId: number | null,
): Promise<void> {
  const props = (m.schema['x-entity'].uniqueInTenant ?? []).filter((p) => body[p] !== undefined && body[p] !== null);
  if (!props.length || !m.orgScoped) return;
  const org = await sql<{ path: string }>`SELECT path FROM organisation WHERE id = ${orgId}`.execute(db);
  if (!org.rows.length) return; // checkRefs answers for an unknown organisation
  const tenant = tenantPath(org.rows[0].path);
  for (const p of props) {
    const hit =
      await sql`SELECT 1 FROM ${sql.raw(m.table)} t JOIN organisation o ON o.id = t.org_id WHERE t.${sql.raw(m.columns.get(p)!)} = ${body[p]} AND ${pathUnder('o.path', tenant)} AND t.id <> ${exceptId ?? 0} LIMIT 1`.execute(
        db,
      );
    if (hit.rows.length) {
      const labelKey = `${m.labelPrefix}.${p}`;
      throw new AppError(
        406,
        'validation.duplicateInTenant',
        {},
        [{ field: p, key: 'validation.duplicateInTenant', params: {}, labelKey }],
        { field: [labelKey] },
      );
    }
  }
}

export async function createRow(db: Kysely<DB>, m: EntityModel, caller: Caller, input: Body): Promise<Row> {
  const body: Body = { ...input };
  if (m.orgScoped && (body.orgId === undefined || body.orgId === null)) body.orgId = caller.orgId;
  await checkRefs(db, m, caller, body);
  await checkTenantUnique(db, m, body, body.orgId, null);
  const pairs = assignments(m, body, caller);
  const cols = sql.raw(pairs.map(([c]) => c).join(', '));
  const vals = sql.join(pairs.map(([, v]) => sql`${v}`));
  const r = await sql<{ id: number }>`INSERT INTO ${sql.raw(m.table)} (${cols}) VALUES (${vals}) RETURNING id`.execute(db);
  return (await getOne(db, m, caller, r.rows[0].id))!;
}

export async function updateRow(db: Kysely<DB>, m: EntityModel, caller: Caller, id: number, input: Body): Promise<Row> {
  const body: Body = { ...input };
  // orgId is NOT NULL: clearing it means "leave it where it is".
  if (m.orgScoped && body.orgId === null) delete body.orgId;
  await checkRefs(db, m, caller, body);
  if (m.schema['x-entity'].uniqueInTenant?.some((p) => body[p] !== undefined || body.orgId !== undefined)) {
    const cur = await sql<
      Record<string, unknown>
    >`SELECT * FROM ${sql.raw(m.table)} t WHERE t.id = ${id} AND ${scopeCondition(m, caller)}`.execute(db);
    if (!cur.rows.length) throw notFound();
    const stored = Object.fromEntries([...m.columns].map(([p, c]) => [p, cur.rows[0][c]]));
    await checkTenantUnique(db, m, { ...stored, ...body }, body.orgId ?? stored.orgId, id);
  }
  const sets = assignments(m, body, caller).map(([c, v]) => sql`${sql.raw(c)} = ${v}`);
  sets.push(sql`updated_at = now()`);
  const r = await sql<{
    id: number;
  }>`UPDATE ${sql.raw(m.table)} t SET ${sql.join(sets)} WHERE t.id = ${id} AND ${scopeCondition(m, caller)} RETURNING t.id`.execute(db);
  if (!r.rows.length) throw notFound();
  return (await getOne(db, m, caller, id))!;
}

export async function deleteRow(db: Kysely<DB>, m: EntityModel, caller: Caller, id: number): Promise<void> {
  const r = await sql`DELETE FROM ${sql.raw(m.table)} t WHERE t.id = ${id} AND ${scopeCondition(m, caller)} RETURNING t.id`.execute(db);
  if (!r.rows.length) throw notFound();
}
