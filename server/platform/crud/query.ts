import { sql, type Kysely, type RawBuilder } from 'kysely';
import { KEYWORD_SEPARATOR, type OptionItem, type Page } from '../../../schemas/kit/entity';
import { countUpTo, offsetOf, pageOf, sortOf, type Direction, type PageOrder } from '../paging';
import type { Caller } from '../auth/caller';
import type { EntityModel, FilterTarget } from './model';
import { orgUnder, pathOfOrg, pathUnder } from '../scope';
import type { DB } from '../db/tables';

// Identifiers below come from checked schemas (camelCase / snake_case only); every value is a parameter.
const raw = (s: string) => sql.raw(s);
type Fragment = RawBuilder<unknown>;

export interface QueryBody {
  criteria?: Record<string, unknown> | null;
  order?: PageOrder | null;
  pageIndex?: number;
  pageSize?: number;
}

export type Row = Record<string, unknown>;

export function selectList(m: EntityModel): Fragment {
  const cols = [...m.columns].map(([prop, col]) => `t.${col} AS "${prop}"`);
  const labels = m.refs.map((r) => `${r.alias}.${r.labelCol} AS "${r.as}"`);
  return raw([...cols, ...labels].join(', '));
}

export function fromClause(m: EntityModel, base: Fragment = raw(m.table)): Fragment {
  const joins = m.refs.map((r) => `LEFT JOIN ${r.table} ${r.alias} ON ${r.alias}.id = t.${r.col}`);
  return sql`${base} t ${raw(joins.join(' '))}`;
}

/** Rows of org-scoped entities are visible only inside the caller's organisation subtree. */
export function scopeCondition(m: EntityModel, caller: Caller): Fragment {
  // The organisation table is its own scope: the caller's subtree (its sheets are the passport's).
  if (m.table === 'organisation') return pathUnder('t.path', caller.orgPath);
  if (!m.orgScoped) return sql`TRUE`;
  return orgUnder('t.org_id', caller.orgPath);
}

/** The rows of a referenced table the caller may point at (organisations themselves by path). */
export const refScope = (r: { orgScoped: boolean; isOrganisation: boolean }, caller: Caller): Fragment =>
  r.isOrganisation ? pathUnder('path', caller.orgPath) : r.orgScoped ? orgUnder('org_id', caller.orgPath) : sql`TRUE`;

export const likePattern = (v: string) => '%' + v.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.every(isEmpty));

/**
 * Case-insensitive "contains". A value without any letter that has case (digits, CJK, …) gives the
 * same answer with LIKE, which compares bytes instead of lower-casing every row: much cheaper on a scan.
 */
function contains(value: string, text: boolean): (col: Fragment) => Fragment {
  const op = raw(value.toLowerCase() === value.toUpperCase() ? 'LIKE' : 'ILIKE');
  return (col) => sql`${text ? col : sql`${col}::text`} ${op} ${likePattern(value)}`;
}

/** A test on a property: in place on an own column, or as `fk = ANY(matching referenced ids)`. */
function onTarget(target: FilterTarget, test: (col: Fragment) => Fragment): Fragment {
  if (target.kind === 'column') return test(raw(target.expr));
  return sql`${raw(target.fk)} = ANY (ARRAY(SELECT id FROM ${raw(target.table)} WHERE ${test(raw(target.labelCol))}))`;
}

/** Conditions of a query's criteria; they name only the entity's own table (alias t). */
function criteriaConditions(m: EntityModel, criteria: Record<string, unknown>): Fragment[] {
  const out: Fragment[] = [];
  for (const [key, value] of Object.entries(criteria)) {
    if (isEmpty(value)) continue;
    if (key === 'keyword') {
      const v = String(value).split(KEYWORD_SEPARATOR).join('');
      out.push(
        sql`(${sql.join(
          m.keyword.map((k) => onTarget(k, contains(v, k.text))),
          sql` OR `,
        )})`,
      );
      continue;
    }
    if (key === 'orgId') {
      // An organisation filter means that organisation and everything below it.
      out.push(orgUnder('t.org_id', pathOfOrg(value as number)));
      continue;
    }
    const s = m.searchable.get(key);
    if (!s) continue; // the body schema already refused it
    if (s.mode === 'like') out.push(onTarget(s.target, contains(String(value), s.target.text)));
    else if (s.mode === 'eq') out.push(onTarget(s.target, (col) => sql`${col} = ${value}`));
    else {
      const [from, to] = value as unknown[];
      if (!isEmpty(from)) out.push(onTarget(s.target, (col) => sql`${col} >= ${from}`));
      if (!isEmpty(to)) out.push(onTarget(s.target, (col) => sql`${col} <= ${to}`));
    }
  }
  return out;
}

/** The sort expression and direction of a body's order (the entity's default when absent or unknown). */
export function sortKey(m: EntityModel, order: QueryBody['order']): { expr: string; dir: Direction } {
  const { column, direction } = sortOf(order, Object.fromEntries(m.sortable), {
    column: m.defaultOrder.expr,
    direction: m.defaultOrder.direction,
  });
  return { expr: column, dir: direction };
}

// The id breaks ties, so pages never overlap or skip rows however many rows share a value; it runs
// the same way as the sort so a (column, id) index serves both.
const orderClause = (o: { expr: string; dir: string }) => raw(`${o.expr} ${o.dir}, t.id ${o.dir}`);

/** Strips nulls so a response carries only what is set (the generated types mark fields optional). */
export function compact(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** The list's WHERE: the caller's scope and the body's criteria (export uses the same). */
export const whereClause = (m: EntityModel, caller: Caller, criteria: QueryBody['criteria']): Fragment =>
  sql.join([scopeCondition(m, caller), ...criteriaConditions(m, criteria ?? {})], sql` AND `);

export async function queryPage(db: Kysely<DB>, m: EntityModel, caller: Caller, body: QueryBody): Promise<Page<Row>> {
  const paging = { pageIndex: body.pageIndex ?? 1, pageSize: body.pageSize ?? 20 };
  const { pageSize } = paging;
  const offset = offsetOf(paging);
  const where = whereClause(m, caller, body.criteria);
  const order = sortKey(m, body.order);
  // Filter, sort and cut the page on the entity's table alone, then join the labels of those rows
  // only (not of every row skipped by the offset). A sort on a relation label needs the joins first.
  const own = order.expr.startsWith('t.');
  const page = own
    ? sql`(SELECT t.* FROM ${raw(m.table)} t WHERE ${where} ORDER BY ${orderClause(order)} LIMIT ${pageSize} OFFSET ${offset})`
    : raw(m.table);
  const rows = own
    ? await sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m, page)} ORDER BY ${orderClause(order)}`.execute(db)
    : await sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m)} WHERE ${where} ORDER BY ${orderClause(order)} LIMIT ${pageSize} OFFSET ${offset}`.execute(
        db,
      );
  return pageOf(paging, rows.rows.map(compact), (limit) => countUpTo(db, sql`SELECT 1 FROM ${raw(m.table)} t WHERE ${where}`, limit));
}

export async function getOne(db: Kysely<DB>, m: EntityModel, caller: Caller, id: number): Promise<Row | undefined> {
  const r = await sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m)} WHERE t.id = ${id} AND ${scopeCondition(m, caller)}`.execute(db);
  return r.rows[0] && compact(r.rows[0]);
}

/** `{value, label}` pairs for selects; `q` narrows by label, `unused` to rows nothing uses (unusedBy.ts), at most `limit` rows. */
export async function options(
  db: Kysely<DB>,
  m: EntityModel,
  caller: Caller,
  q: string | undefined,
  limit: number,
  unused: Fragment = sql`TRUE`,
): Promise<OptionItem[]> {
  const filter = sql`${q ? contains(q, false)(raw(m.optionLabel)) : sql`TRUE`} AND ${unused}`;
  const detailProp = m.schema['x-entity'].optionDetail;
  const detail = detailProp ? sql`, t.${sql.raw(m.columns.get(detailProp)!)}::text AS detail` : sql``;
  const r =
    await sql<OptionItem>`SELECT t.id AS value, ${raw(m.optionLabel)} AS label${detail} FROM ${fromClause(m)} WHERE ${scopeCondition(m, caller)} AND ${filter} ORDER BY ${raw(m.optionLabel)}, t.id LIMIT ${limit}`.execute(
      db,
    );
  return r.rows;
}
