import type { ValidateFunction } from 'ajv';
import { sql, type Kysely } from 'kysely';
import { createAjv } from '../../../../schemas/kit/ajv';
import { normaliseBody } from '../../../../schemas/kit/entity';
import type { RowPlan, SheetRowErrors } from '../../../../schemas/kit/sheetReport';
import { renderFieldError, toFieldErrors } from '../../../../schemas/kit/errors';
import type { Translate } from '../../../../schemas/kit/i18n';
import type { Caller } from '../../auth/caller';
import { AppError } from '../../http/errors';
import type { EntityModel, RefModel } from '../model';
import { coerce, guardedReadOnly, headerIndex, type SheetColumn } from './columns';
import { changesOf, loadMatches, mergedOver, readOnlyChanged } from './changes';
import { identifyRows } from './identify';
import type { Body, RowFieldError, SheetRow } from './row';
import type { Row as StoredRow } from '../query';
import type { SheetRows } from './read';
import { refScope } from '../query';
import type { DB } from '../../db/tables';
import type { BodyCheck } from '../routes';
import { pathUnder } from '../../scope';

export type RowErrors = SheetRowErrors;

/** A valid row that updates the record its natural key named: the record as stored, and what changes. */
export interface RowUpdate {
  row: number;
  id: number;
  before: StoredRow;
  changes: Body;
}

export interface CheckedRows {
  /** Rows to create (import) or to renew (`{id, …fields}`); an import's rows with errors are here too, with errors. */
  bodies: Array<{ row: number; body: Body }>;
  errors: RowErrors[];
  /** An import's updates of stored records (their rows are not in `bodies`). */
  updates?: RowUpdate[];
  /** An import's plan: what each valid row does. */
  plan?: RowPlan[];
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
  rows: SheetRow[],
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
async function resolveRefs(db: Kysely<DB>, m: EntityModel, caller: Caller, ref: RefModel, rows: SheetRow[]): Promise<void> {
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

const shown = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

/**
 * Row errors in the caller's words, quoting what the cell held: an enum lists its allowed labels,
 * any other schema failure adds the value after the message.
 */
function render(m: EntityModel, cols: SheetColumn[], r: SheetRow, t: Translate): RowErrors['errors'] {
  return r.errs.map((fe) => {
    const col = cols.find((c) => c.key === fe.field || c.ref?.prop === fe.field);
    const raw = col ? r.raw[col.key] : undefined;
    if (fe.key === 'validation.enum' && col?.schema.enum && raw !== undefined) {
      const allowed = col.schema.enum.filter((e) => e !== null).map((e) => t(`entity.${m.name}.enums.${col.key}.${String(e)}`));
      const message = t('sheet.enumInvalid', { field: t(fe.labelKey ?? col.labelKey), value: shown(raw), allowed: allowed.join('、') });
      return { field: fe.field, key: 'sheet.enumInvalid', message };
    }
    const list = (keys: string[] | undefined) => keys?.map((k) => t(k)).join('、');
    const params = {
      ...fe.params,
      ...(fe.labelList ? { fields: list(fe.labelList)! } : {}),
      ...(fe.otherList ? { others: list(fe.otherList)! } : {}),
    };
    const message = renderFieldError({ ...fe, params }, t);
    const quote = raw !== undefined && fe.key.startsWith('validation.') && fe.key !== 'validation.required';
    return { field: fe.field, key: fe.key, message: quote ? t('sheet.withValue', { message, value: shown(raw) }) : message };
  });
}

function parseRows(m: EntityModel, sheet: SheetRows, cols: SheetColumn[], readOnly: SheetColumn[], zone?: string): SheetRow[] {
  const byIndex = mapHeaders(sheet.headers, cols, readOnly);
  const readOnlyIndex = headerIndex(readOnly);
  const readOnlyAt = sheet.headers.map((h) => readOnlyIndex.get(h.trim().toLowerCase()));
  return sheet.rows.map(({ row, cells }) => {
    const body: Body = {};
    const raw: Body = {};
    const readOnlyRaw: Body = {};
    const given = new Set<string>();
    byIndex.forEach((c, i) => {
      if (c && cells[i] !== undefined) {
        raw[c.key] = cells[i];
        body[c.key] = coerce(m, c, cells[i], zone);
        given.add(c.ref?.prop ?? c.key);
      }
    });
    readOnlyAt.forEach((c, i) => {
      if (c && !byIndex[i] && cells[i] !== undefined) readOnlyRaw[c.key] = cells[i];
    });
    return { row, body, errs: [], raw, readOnlyRaw, orgPath: '', given };
  });
}

/** Each valid row's plan, and the bodies to create and the updates to write. */
function planOf(rows: SheetRow[], changes: Map<SheetRow, Body>): Pick<CheckedRows, 'plan' | 'updates'> & { creates: SheetRow[] } {
  const valid = rows.filter((r) => !r.errs.length);
  const plan = valid.map((r): RowPlan => {
    if (!r.match) return { row: r.row, action: 'create' };
    const changed = Object.keys(changes.get(r) ?? {});
    return { row: r.row, action: changed.length ? 'update' : 'unchanged', key: r.match.key, ...(changed.length ? { changed } : {}) };
  });
  const updates = valid.flatMap((r): RowUpdate[] => {
    const c = changes.get(r);
    return r.match?.stored && c && Object.keys(c).length ? [{ row: r.row, id: r.match.id, before: r.match.stored, changes: c }] : [];
  });
  return { plan, updates, creates: valid.filter((r) => !r.match) };
}

function finish(m: EntityModel, cols: SheetColumn[], rows: SheetRow[], t: Translate, extra: Partial<CheckedRows> = {}): CheckedRows {
  return {
    bodies: rows.map(({ row, body }) => ({ row, body })),
    errors: rows.filter((r) => r.errs.length).map((r) => ({ row: r.row, errors: render(m, cols, r, t) })),
    ...extra,
  };
}

/**
 * Import rows: relations resolved, the update schema (what the row gives is well-formed), the
 * natural keys looked up (identify.ts), then a row naming no record checked as a create (the create
 * schema) and one naming a record as its update (read-only columns unchanged); the entity's own
 * rule over what would be stored. A row equal to its record is unchanged: nothing is written.
 */
export const checkImportRows = (
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  sheet: SheetRows,
  cols: SheetColumn[],
  t: Translate,
  readOnly: SheetColumn[] = [],
  zone?: string,
  bodyCheck?: BodyCheck,
): Promise<CheckedRows> => checkRows(db, m, caller, sheet, cols, t, readOnly, zone, bodyCheck, false);

/** Import rows that can only be new (the passport's accounts and organisations): a row naming a stored record is a duplicate. */
export const checkCreateRows = (
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  sheet: SheetRows,
  cols: SheetColumn[],
  t: Translate,
  readOnly: SheetColumn[] = [],
  zone?: string,
): Promise<CheckedRows> => checkRows(db, m, caller, sheet, cols, t, readOnly, zone, undefined, true);

async function checkRows(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  sheet: SheetRows,
  cols: SheetColumn[],
  t: Translate,
  readOnly: SheetColumn[],
  zone: string | undefined,
  bodyCheck: BodyCheck | undefined,
  createOnly: boolean,
): Promise<CheckedRows> {
  const rows = parseRows(m, sheet, cols, readOnly, zone);
  for (const r of rows) {
    r.orgPath = caller.orgPath;
    if (m.orgScoped) r.body.orgId = caller.orgId;
  }
  // The row's own organisation first: the other relations are looked up from it.
  for (const c of cols) if (c.ref?.isOrganisation) await resolveOrganisations(db, m, caller, c.ref, rows, c.ref.prop === 'orgId');
  for (const c of cols) if (c.ref && !c.ref.isOrganisation) await resolveRefs(db, m, caller, c.ref, rows);
  const wellFormed = validator(m.updateSchema);
  for (const r of rows) {
    normaliseBody(m.schema, r.body);
    if (!wellFormed(r.body)) r.errs.push(...toFieldErrors(wellFormed.errors, m.labelPrefix));
  }
  const ok = () => rows.filter((r) => !r.errs.length);
  await identifyRows(db, m, caller, ok(), cols, createOnly);
  await loadMatches(db, m, caller, ok());
  const create = validator(m.createSchema);
  const guarded = guardedReadOnly(m, readOnly);
  const changes = new Map<SheetRow, Body>();
  for (const r of ok()) {
    // Gone from the caller's scope between the look-up and the load (deleted meanwhile): a new record.
    if (r.match && !r.match.stored) delete r.match;
    const stored = r.match?.stored;
    if (!stored) {
      if (!create(r.body)) r.errs.push(...toFieldErrors(create.errors, m.labelPrefix));
      continue;
    }
    for (const c of readOnlyChanged(m, r, stored, guarded, zone))
      r.errs.push({ field: c.key, key: 'sheet.readOnlyChanged', params: {}, labelKey: c.labelKey });
    changes.set(r, changesOf(m, r, stored));
  }
  if (bodyCheck)
    for (const r of ok()) {
      const stored = r.match?.stored;
      const c = changes.get(r);
      if (stored && c && !Object.keys(c).length) continue; // unchanged: nothing is written
      r.errs.push(...(await bodyCheck(stored ? mergedOver(stored, c ?? {}) : r.body, { db, caller })));
    }
  if (createOnly) return finish(m, cols, rows, t);
  const { creates, ...plan } = planOf(rows, changes);
  const failed = rows.filter((r) => r.errs.length);
  return finish(
    m,
    cols,
    [...creates, ...failed].sort((a, b) => a.row - b.row),
    t,
    plan,
  );
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
