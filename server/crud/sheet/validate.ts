import type { ValidateFunction } from 'ajv';
import { sql, type Kysely } from 'kysely';
import { createAjv } from '../../../schemas/kit/ajv';
import { renderFieldError, toFieldErrors, type FieldError } from '../../../schemas/kit/errors';
import type { Translate } from '../../../schemas/kit/i18n';
import type { Caller } from '../../auth/caller';
import { AppError } from '../../http/errors';
import type { EntityModel, RefModel } from '../model';
import { coerce, headerIndex, type SheetColumn } from './columns';
import type { SheetRows } from './read';

type Body = Record<string, unknown>;

/** A row's field error; `labelList` names several fields (a unique set) rendered together. */
interface RowFieldError extends FieldError {
  labelList?: string[];
}

export interface RowErrors {
  row: number;
  errors: Array<{ field: string; key: string; message: string }>;
}

export interface CheckedRows {
  /** Every row's body (create body for import; `{id, …fields}` for renew). */
  bodies: Array<{ row: number; body: Body }>;
  errors: RowErrors[];
}

const ajv = createAjv();
const compiled = new WeakMap<object, ValidateFunction>();
/** The same ajv options and schema as the create route, compiled once per schema object. */
function validator(schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(schema)));
  return v;
}

/** Header cells → columns; an unrecognised header is refused up front (a typo would lose data). */
function mapHeaders(headers: string[], cols: SheetColumn[]): Array<SheetColumn | undefined> {
  const idx = headerIndex(cols);
  const unknown: string[] = [];
  const mapped = headers.map((h) => {
    if (!h.trim()) return undefined;
    const c = idx.get(h.trim().toLowerCase());
    if (!c) unknown.push(h);
    return c;
  });
  if (unknown.length) throw new AppError(400, 'sheet.unknownColumns', { columns: unknown.join('、') });
  return mapped;
}

const scopeOf = (r: { orgScoped: boolean; isOrganisation: boolean }, caller: Caller) =>
  r.isOrganisation ? sql`path LIKE ${caller.orgPath + '%'}` : r.orgScoped ? sql`org_id IN (SELECT id FROM organisation WHERE path LIKE ${caller.orgPath + '%'})` : sql`TRUE`;

/** Label → id among the rows the caller can see; a label shared by two rows stays unresolved. */
async function resolveLabels(db: Kysely<unknown>, table: string, labelCol: string, labels: string[], scope: ReturnType<typeof scopeOf>): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (!labels.length) return out;
  const r = await sql<{ id: number; label: string }>`SELECT id, ${sql.raw(labelCol)}::text AS label FROM ${sql.raw(table)} WHERE ${sql.raw(labelCol)}::text = ANY(${labels}::text[]) AND ${scope}`.execute(db);
  for (const { id, label } of r.rows) out.set(label, out.has(label) ? null : id);
  return out;
}

async function resolveRefs(db: Kysely<unknown>, m: EntityModel, caller: Caller, ref: RefModel, rows: Array<{ body: Body; errs: RowFieldError[] }>): Promise<void> {
  const labels = [...new Set(rows.map((r) => r.body[ref.as]).filter((v): v is string => typeof v === 'string'))];
  const ids = await resolveLabels(db, ref.table, ref.labelCol, labels, scopeOf(ref, caller));
  for (const r of rows) {
    const label = r.body[ref.as];
    delete r.body[ref.as];
    if (label === undefined) continue;
    const id = ids.get(String(label));
    if (id) r.body[ref.prop] = id;
    else r.errs.push({ field: ref.prop, key: 'validation.refNotFound', params: {}, labelKey: `${m.labelPrefix}.${ref.prop}` });
  }
}

/** Unique sets: a repeat inside the file names the earlier row; a clash with stored rows says so. */
async function checkUnique(db: Kysely<unknown>, m: EntityModel, caller: Caller, rows: Array<{ row: number; body: Body; errs: RowFieldError[] }>): Promise<void> {
  for (const set of m.uniqueSets) {
    const valueOf = (body: Body, p: string) => (p === 'orgId' ? caller.orgId : body[p]);
    const labelList = set.filter((p) => p !== 'orgId').map((p) => `${m.labelPrefix}.${p}`);
    const field = set[set.length - 1];
    const keyed = rows.filter((r) => set.every((p) => valueOf(r.body, p) !== undefined && valueOf(r.body, p) !== null));
    const seen = new Map<string, number>();
    for (const r of keyed) {
      const k = JSON.stringify(set.map((p) => String(valueOf(r.body, p))));
      const first = seen.get(k);
      if (first === undefined) seen.set(k, r.row);
      else r.errs.push({ field, key: 'sheet.duplicateInFile', params: { row: first }, labelList });
    }
    const cols = set.map((p) => sql.raw(`${m.columns.get(p)!}::text`));
    for (let i = 0; i < keyed.length; i += 1000) {
      const chunk = keyed.slice(i, i + 1000);
      const tuples = chunk.map((r) => sql`(${sql.join(set.map((p) => sql`${String(valueOf(r.body, p))}::text`))})`);
      const found = await sql<Record<string, string>>`SELECT ${sql.join(cols)} FROM ${sql.raw(m.table)} WHERE (${sql.join(cols)}) IN (${sql.join(tuples)})`.execute(db);
      const existing = new Set(found.rows.map((row) => JSON.stringify(Object.values(row))));
      for (const r of chunk) {
        if (existing.has(JSON.stringify(set.map((p) => String(valueOf(r.body, p)))))) r.errs.push({ field, key: 'error.duplicate', params: {}, labelList });
      }
    }
  }
}

function render(errs: RowFieldError[], t: Translate): RowErrors['errors'] {
  return errs.map((fe) => {
    const params = fe.labelList ? { ...fe.params, fields: fe.labelList.map((k) => t(k)).join('、') } : fe.params;
    return { field: fe.field, key: fe.key, message: renderFieldError({ ...fe, params }, t) };
  });
}

function parseRows(m: EntityModel, sheet: SheetRows, cols: SheetColumn[]): Array<{ row: number; body: Body; errs: RowFieldError[] }> {
  const byIndex = mapHeaders(sheet.headers, cols);
  return sheet.rows.map(({ row, cells }) => {
    const body: Body = {};
    byIndex.forEach((c, i) => {
      if (c && cells[i] !== undefined) body[c.key] = coerce(m, c, cells[i]);
    });
    return { row, body, errs: [] };
  });
}

function finish(rows: Array<{ row: number; body: Body; errs: RowFieldError[] }>, t: Translate): CheckedRows {
  return {
    bodies: rows.map(({ row, body }) => ({ row, body })),
    errors: rows.filter((r) => r.errs.length).map((r) => ({ row: r.row, errors: render(r.errs, t) })),
  };
}

/** Import rows checked as creates: relations resolved, the create schema, unique sets. */
export async function checkImportRows(db: Kysely<unknown>, m: EntityModel, caller: Caller, sheet: SheetRows, cols: SheetColumn[], t: Translate): Promise<CheckedRows> {
  const rows = parseRows(m, sheet, cols);
  for (const c of cols) if (c.ref) await resolveRefs(db, m, caller, c.ref, rows);
  const validate = validator(m.createSchema);
  for (const r of rows) {
    if (!validate(r.body)) r.errs.push(...toFieldErrors(validate.errors, m.labelPrefix));
  }
  await checkUnique(db, m, caller, rows.filter((r) => !r.errs.length));
  return finish(rows, t);
}

const renewSchemas = new WeakMap<EntityModel, Record<string, unknown>>();
/** The renew row schema: the match property and the renewed fields, all required, as in create. */
function renewSchema(m: EntityModel): Record<string, unknown> {
  let s = renewSchemas.get(m);
  if (!s) {
    const { match, fields } = m.schema['x-entity'].renew!;
    const props = (m.createSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    const keep = [match, ...fields];
    const nonNull = (p: Record<string, unknown>) => ({ ...p, type: Array.isArray(p.type) ? p.type.filter((x) => x !== 'null') : p.type });
    renewSchemas.set(m, (s = { type: 'object', additionalProperties: false, required: keep, properties: Object.fromEntries(keep.map((k) => [k, nonNull(props[k])])) }));
  }
  return s;
}

/** Renewal rows: each names a visible row by the match property and carries the new values. */
export async function checkRenewRows(db: Kysely<unknown>, m: EntityModel, caller: Caller, sheet: SheetRows, cols: SheetColumn[], t: Translate): Promise<CheckedRows> {
  const { match } = m.schema['x-entity'].renew!;
  const rows = parseRows(m, sheet, cols);
  const validate = validator(renewSchema(m));
  for (const r of rows) if (!validate(r.body)) r.errs.push(...toFieldErrors(validate.errors, m.labelPrefix));
  const scope = scopeOf({ orgScoped: m.orgScoped, isOrganisation: false }, caller);
  const ids = await resolveLabels(db, m.table, m.columns.get(match)!, rows.map((r) => String(r.body[match] ?? '')).filter(Boolean), scope);
  const seen = new Map<string, number>();
  for (const r of rows.filter((x) => !x.errs.length)) {
    const key = String(r.body[match]);
    const id = ids.get(key);
    if (!id) r.errs.push({ field: match, key: 'validation.refNotFound', params: {}, labelKey: `${m.labelPrefix}.${match}` });
    else if (seen.has(key)) r.errs.push({ field: match, key: 'sheet.duplicateInFile', params: { row: seen.get(key)! }, labelList: [`${m.labelPrefix}.${match}`] });
    else {
      seen.set(key, r.row);
      r.body.id = id;
    }
  }
  return finish(rows, t);
}
