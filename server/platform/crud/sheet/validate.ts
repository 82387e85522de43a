import type { ValidateFunction } from 'ajv';
import { sql, type Kysely } from 'kysely';
import { createAjv } from '../../../../schemas/kit/ajv';
import { deviceIdentity, identityTable, normaliseBody, tenantPath } from '../../../../schemas/kit/entity';
import { renderFieldError, toFieldErrors, type FieldError } from '../../../../schemas/kit/errors';
import type { Translate } from '../../../../schemas/kit/i18n';
import type { Caller } from '../../auth/caller';
import { AppError } from '../../http/errors';
import type { EntityModel, RefModel } from '../model';
import { coerce, headerIndex, type SheetColumn } from './columns';
import type { SheetRows } from './read';
import { refScope } from '../query';
import type { DB } from '../../db/tables';
import type { BodyCheck } from '../routes';
import { pathUnder } from '../../scope';

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

/**
 * Header cells → columns; an unrecognised header is refused up front (a typo would lose data). The
 * export's read-only columns (creation and update times…) are recognised and ignored, so an
 * exported file imports again.
 */
function mapHeaders(headers: string[], cols: SheetColumn[], readOnly: SheetColumn[]): Array<SheetColumn | undefined> {
  const idx = headerIndex(cols);
  const ignored = headerIndex(readOnly);
  const unknown: string[] = [];
  const mapped = headers.map((h) => {
    if (!h.trim()) return undefined;
    const key = h.trim().toLowerCase();
    const c = idx.get(key);
    if (!c && !ignored.has(key)) unknown.push(h);
    return c;
  });
  if (unknown.length) throw new AppError(400, 'sheet.unknownColumns', { columns: unknown.join('、') });
  return mapped;
}

/** Label → id among the rows the caller can see; a label shared by two rows stays unresolved. */
async function resolveLabels(
  db: Kysely<DB>,
  table: string,
  labelCol: string,
  labels: string[],
  scope: ReturnType<typeof refScope>,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (!labels.length) return out;
  const r = await sql<{
    id: number;
    label: string;
  }>`SELECT id, ${sql.raw(labelCol)}::text AS label FROM ${sql.raw(table)} WHERE ${sql.raw(labelCol)}::text = ANY(${labels}::text[]) AND ${scope}`.execute(
    db,
  );
  for (const { id, label } of r.rows) out.set(label, out.has(label) ? null : id);
  return out;
}

interface Row {
  row: number;
  body: Body;
  errs: RowFieldError[];
  /** Cells as read, by column key, so an error can quote what was written. */
  raw: Body;
  /** Path of the organisation the row goes to (the caller's unless its organisation column names another). */
  orgPath: string;
}

const refError = (m: EntityModel, ref: RefModel, key: string, params: Record<string, string | number> = {}): RowFieldError => ({
  field: ref.prop,
  key,
  params,
  labelKey: `${m.labelPrefix}.${ref.prop}`,
});

/**
 * A relation to an organisation, by name or code (codes are case-insensitive), inside the caller's
 * subtree. A name two organisations share is refused, naming their codes, so a row never lands in
 * the wrong one. For the row's own organisation column (`orgId`) the row's organisation is set
 * (blank: the caller's), and names in the row's other relations are
 * then looked up from there.
 */
async function resolveOrganisations(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  ref: RefModel,
  rows: Row[],
  rowOrg: boolean,
): Promise<void> {
  const texts = [
    ...new Set(
      rows
        .map((r) => r.body[ref.as])
        .filter((v) => v !== undefined)
        .map(String),
    ),
  ];
  const found = texts.length
    ? (
        await sql<{
          id: number;
          name: string;
          code: string | null;
          path: string;
        }>`SELECT id, name, code, path FROM organisation WHERE ${pathUnder('path', caller.orgPath)} AND (name = ANY(${texts}::text[]) OR lower(code) = ANY(${texts.map((x) => x.toLowerCase())}::text[]))`.execute(
          db,
        )
      ).rows
    : [];
  for (const r of rows) {
    const text = r.body[ref.as];
    delete r.body[ref.as];
    if (text === undefined) continue; // blank: the caller's organisation, set before
    const t = String(text);
    const byCode = found.filter((o) => o.code !== null && o.code.toLowerCase() === t.toLowerCase());
    const hits = byCode.length ? byCode : found.filter((o) => o.name === t);
    if (hits.length === 1) {
      r.body[ref.prop] = hits[0].id;
      if (rowOrg) r.orgPath = hits[0].path;
    } else if (hits.length > 1)
      r.errs.push(refError(m, ref, 'sheet.orgAmbiguous', { value: t, codes: hits.map((o) => o.code ?? o.name).join('、') }));
    else r.errs.push(refError(m, ref, 'sheet.refNotFound', { value: t }));
  }
}

/**
 * A relation by its label, for each row within the row's organisation first, then its ancestors
 * (nearest first), then anywhere in the caller's scope when that is a single row. A label that
 * still names several rows is refused naming their organisations.
 */
async function resolveRefs(db: Kysely<DB>, m: EntityModel, caller: Caller, ref: RefModel, rows: Row[]): Promise<void> {
  const labels = [
    ...new Set(
      rows
        .map((r) => r.body[ref.as])
        .filter((v) => v !== undefined)
        .map(String),
    ),
  ];
  const orgCols = ref.orgScoped ? sql`o.path, o.name AS org` : sql`'' AS path, '' AS org`;
  const join = ref.orgScoped ? sql`JOIN organisation o ON o.id = t.org_id` : sql``;
  const candidates = labels.length
    ? (
        await sql<{
          id: number;
          label: string;
          path: string;
          org: string;
        }>`SELECT t.id, t.${sql.raw(ref.labelCol)}::text AS label, ${orgCols} FROM ${sql.raw(ref.table)} t ${join} WHERE t.${sql.raw(ref.labelCol)}::text = ANY(${labels}::text[]) AND ${ref.orgScoped ? pathUnder('o.path', caller.orgPath) : sql`TRUE`}`.execute(
          db,
        )
      ).rows
    : [];
  const byLabel = new Map<string, typeof candidates>();
  for (const c of candidates) byLabel.set(c.label, [...(byLabel.get(c.label) ?? []), c]);
  for (const r of rows) {
    const label = r.body[ref.as];
    delete r.body[ref.as];
    if (label === undefined) continue;
    const all = byLabel.get(String(label)) ?? [];
    const chain = all.filter((c) => r.orgPath.startsWith(c.path));
    const nearest = chain.length ? chain.filter((c) => c.path.length === Math.max(...chain.map((x) => x.path.length))) : all;
    if (nearest.length === 1) r.body[ref.prop] = nearest[0].id;
    else if (nearest.length > 1)
      r.errs.push(
        refError(m, ref, 'sheet.refAmbiguous', { value: String(label), orgs: [...new Set(nearest.map((c) => c.org))].sort().join('、') }),
      );
    else r.errs.push(refError(m, ref, 'sheet.refNotFound', { value: String(label) }));
  }
}

/** Unique sets: a repeat inside the file names the earlier row; a clash with stored rows says so. */
async function checkUnique(db: Kysely<DB>, m: EntityModel, caller: Caller, rows: Row[]): Promise<void> {
  for (const set of m.uniqueSets) {
    const valueOf = (body: Body, p: string) => (p === 'orgId' ? (body.orgId ?? caller.orgId) : body[p]);
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
      // One array per column (not a parameter per cell): the statement keeps one shape however many
      // rows, which the embedded PGlite spun on when the same many-parameter statement ran again.
      const arrays = set.map((p) => sql`${chunk.map((r) => String(valueOf(r.body, p)))}::text[]`);
      const found = await sql<
        Record<string, string>
      >`SELECT ${sql.join(cols)} FROM ${sql.raw(m.table)} WHERE (${sql.join(cols)}) IN (SELECT * FROM unnest(${sql.join(arrays)}))`.execute(
        db,
      );
      const existing = new Set(found.rows.map((row) => JSON.stringify(Object.values(row))));
      for (const r of chunk) {
        if (existing.has(JSON.stringify(set.map((p) => String(valueOf(r.body, p))))))
          r.errs.push({ field, key: 'error.duplicate', params: {}, labelList });
      }
    }
  }
}

/**
 * x-entity.identity: a value (leading zeros ignored) repeated by another row of the file names the
 * earlier row; one held by a stored row of any organisation is refused with the create route's
 * words, which say nothing of that row.
 */
async function checkIdentity(db: Kysely<DB>, m: EntityModel, rows: Row[]): Promise<void> {
  const props = m.schema['x-entity'].identity;
  if (!props) return;
  const labelList = props.map((p) => `${m.labelPrefix}.${p}`);
  const claims = rows.flatMap((r) =>
    props.filter((p) => r.body[p] !== undefined && r.body[p] !== null).map((p) => ({ r, p, identity: deviceIdentity(String(r.body[p])) })),
  );
  const first = new Map<string, Row>();
  for (const c of claims) {
    const earlier = first.get(c.identity);
    if (!earlier) first.set(c.identity, c.r);
    else if (earlier !== c.r)
      c.r.errs.push({ field: c.p, key: 'sheet.duplicateInFile', params: { row: earlier.row }, labelList: [`${m.labelPrefix}.${c.p}`] });
  }
  if (!claims.length) return;
  const held = await sql<{
    identity: string;
  }>`SELECT identity FROM ${sql.table(identityTable(m.table))} WHERE identity = ANY(${[...first.keys()]}::text[])`.execute(db);
  const taken = new Set(held.rows.map((h) => h.identity));
  for (const c of claims) if (taken.has(c.identity)) c.r.errs.push({ field: c.p, key: 'error.identityTaken', params: {}, labelList });
}

const shown = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

/**
 * Row errors in the caller's words, quoting what the cell held: an enum lists its allowed labels,
 * any other schema failure adds the value after the message.
 */
/** `uniqueInTenant` properties: a repeat within one tenant in the file, or a stored row of that tenant. */
async function checkTenantUnique(db: Kysely<DB>, m: EntityModel, rows: Row[]): Promise<void> {
  for (const p of m.schema['x-entity'].uniqueInTenant ?? []) {
    const keyed = rows.filter((r) => r.body[p] !== undefined && r.body[p] !== null);
    const labelKey = `${m.labelPrefix}.${p}`;
    const seen = new Map<string, number>();
    for (const r of keyed) {
      const k = `${tenantPath(r.orgPath)}\u0000${String(r.body[p])}`;
      const first = seen.get(k);
      if (first === undefined) seen.set(k, r.row);
      else r.errs.push({ field: p, key: 'sheet.duplicateInFile', params: { row: first }, labelList: [labelKey] });
    }
    const values = [...new Set(keyed.map((r) => String(r.body[p])))];
    if (!values.length) continue;
    const found = await sql<{
      v: string;
      path: string;
    }>`SELECT t.${sql.raw(m.columns.get(p)!)}::text AS v, o.path FROM ${sql.raw(m.table)} t JOIN organisation o ON o.id = t.org_id WHERE t.${sql.raw(m.columns.get(p)!)}::text = ANY(${values}::text[])`.execute(
      db,
    );
    const taken = new Set(found.rows.map((f) => `${tenantPath(f.path)}\u0000${f.v}`));
    for (const r of keyed)
      if (taken.has(`${tenantPath(r.orgPath)}\u0000${String(r.body[p])}`))
        r.errs.push({ field: p, key: 'validation.duplicateInTenant', params: {}, labelKey });
  }
}

function render(m: EntityModel, cols: SheetColumn[], r: Row, t: Translate): RowErrors['errors'] {
  return r.errs.map((fe) => {
    const col = cols.find((c) => c.key === fe.field || c.ref?.prop === fe.field);
    const raw = col ? r.raw[col.key] : undefined;
    if (fe.key === 'validation.enum' && col?.schema.enum && raw !== undefined) {
      const allowed = col.schema.enum.filter((e) => e !== null).map((e) => t(`entity.${m.name}.enums.${col.key}.${String(e)}`));
      const message = t('sheet.enumInvalid', { field: t(fe.labelKey ?? col.labelKey), value: shown(raw), allowed: allowed.join('、') });
      return { field: fe.field, key: 'sheet.enumInvalid', message };
    }
    const params = fe.labelList ? { ...fe.params, fields: fe.labelList.map((k) => t(k)).join('、') } : fe.params;
    const message = renderFieldError({ ...fe, params }, t);
    const quote = raw !== undefined && fe.key.startsWith('validation.') && fe.key !== 'validation.required';
    return { field: fe.field, key: fe.key, message: quote ? t('sheet.withValue', { message, value: shown(raw) }) : message };
  });
}

function parseRows(m: EntityModel, sheet: SheetRows, cols: SheetColumn[], readOnly: SheetColumn[], zone?: string): Row[] {
  const byIndex = mapHeaders(sheet.headers, cols, readOnly);
  return sheet.rows.map(({ row, cells }) => {
    const body: Body = {};
    const raw: Body = {};
    byIndex.forEach((c, i) => {
      if (c && cells[i] !== undefined) {
        raw[c.key] = cells[i];
        body[c.key] = coerce(m, c, cells[i], zone);
      }
    });
    return { row, body, errs: [], raw, orgPath: '' };
  });
}

function finish(m: EntityModel, cols: SheetColumn[], rows: Row[], t: Translate): CheckedRows {
  return {
    bodies: rows.map(({ row, body }) => ({ row, body })),
    errors: rows.filter((r) => r.errs.length).map((r) => ({ row: r.row, errors: render(m, cols, r, t) })),
  };
}

/** Import rows checked as creates: relations resolved, the create schema, the entity's own rule, unique sets. */
export async function checkImportRows(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  sheet: SheetRows,
  cols: SheetColumn[],
  t: Translate,
  readOnly: SheetColumn[] = [],
  zone?: string,
  bodyCheck?: BodyCheck,
): Promise<CheckedRows> {
  const rows = parseRows(m, sheet, cols, readOnly, zone);
  for (const r of rows) {
    r.orgPath = caller.orgPath;
    if (m.orgScoped) r.body.orgId = caller.orgId;
  }
  // The row's own organisation first: the other relations are looked up from it.
  for (const c of cols) if (c.ref?.isOrganisation) await resolveOrganisations(db, m, caller, c.ref, rows, c.ref.prop === 'orgId');
  for (const c of cols) if (c.ref && !c.ref.isOrganisation) await resolveRefs(db, m, caller, c.ref, rows);
  const validate = validator(m.createSchema);
  for (const r of rows) {
    normaliseBody(m.schema, r.body);
    if (!validate(r.body)) r.errs.push(...toFieldErrors(validate.errors, m.labelPrefix));
  }
  if (bodyCheck) for (const r of rows) if (!r.errs.length) r.errs.push(...(await bodyCheck(r.body, { db, caller })));
  await checkUnique(
    db,
    m,
    caller,
    rows.filter((r) => !r.errs.length),
  );
  await checkTenantUnique(
    db,
    m,
    rows.filter((r) => !r.errs.length),
  );
  await checkIdentity(
    db,
    m,
    rows.filter((r) => !r.errs.length),
  );
  return finish(m, cols, rows, t);
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
    renewSchemas.set(
      m,
      (s = {
        type: 'object',
        additionalProperties: false,
        required: keep,
        properties: Object.fromEntries(keep.map((k) => [k, nonNull(props[k])])),
      }),
    );
  }
  return s;
}

/** Renewal rows: each names a visible row by the match property and carries the new values. */
export async function checkRenewRows(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  sheet: SheetRows,
  cols: SheetColumn[],
  t: Translate,
  _readOnly: SheetColumn[] = [],
  zone?: string,
): Promise<CheckedRows> {
  const { match } = m.schema['x-entity'].renew!;
  const rows = parseRows(m, sheet, cols, [], zone);
  const validate = validator(renewSchema(m));
  for (const r of rows) normaliseBody(m.schema, r.body);
  for (const r of rows) if (!validate(r.body)) r.errs.push(...toFieldErrors(validate.errors, m.labelPrefix));
  const scope = refScope({ orgScoped: m.orgScoped, isOrganisation: false }, caller);
  const ids = await resolveLabels(db, m.table, m.columns.get(match)!, rows.map((r) => String(r.body[match] ?? '')).filter(Boolean), scope);
  const seen = new Map<string, number>();
  for (const r of rows.filter((x) => !x.errs.length)) {
    const key = String(r.body[match]);
    const id = ids.get(key);
    if (!id) r.errs.push({ field: match, key: 'sheet.refNotFound', params: { value: key }, labelKey: `${m.labelPrefix}.${match}` });
    else if (seen.has(key))
      r.errs.push({
        field: match,
        key: 'sheet.duplicateInFile',
        params: { row: seen.get(key)! },
        labelList: [`${m.labelPrefix}.${match}`],
      });
    else {
      seen.set(key, r.row);
      r.body.id = id;
    }
  }
  return finish(m, cols, rows, t);
}
