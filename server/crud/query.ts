import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Page } from '../../schemas/kit/entity';
import type { Caller } from '../auth/caller';
import type { EntityModel } from './model';

// Identifiers below come from checked schemas (camelCase / snake_case only); every value is a parameter.
const raw = (s: string) => sql.raw(s);
type Fragment = RawBuilder<unknown>;

export interface QueryBody {
  criteria?: Record<string, unknown> | null;
  order?: { direction?: string | null; property?: string | null } | null;
  pageIndex?: number;
  pageSize?: number;
}

export type Row = Record<string, unknown>;

export function selectList(m: EntityModel): Fragment {
  const cols = [...m.columns].map(([prop, col]) => `t.${col} AS "${prop}"`);
  const labels = m.refs.map((r) => `${r.alias}.${r.labelCol} AS "${r.as}"`);
  return raw([...cols, ...labels].join(', '));
}

export function fromClause(m: EntityModel): Fragment {
  const joins = m.refs.map((r) => `LEFT JOIN ${r.table} ${r.alias} ON ${r.alias}.id = t.${r.col}`);
  return raw([`${m.table} t`, ...joins].join(' '));
}

/** Rows of org-scoped entities are visible only inside the caller's organisation subtree. */
export function scopeCondition(m: EntityModel, caller: Caller): Fragment {
  if (!m.orgScoped) return sql`TRUE`;
  return sql`t.org_id IN (SELECT id FROM organisation WHERE path LIKE ${caller.orgPath + '%'})`;
}

export const likePattern = (v: string) => '%' + v.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.every(isEmpty));

function criteriaConditions(m: EntityModel, criteria: Record<string, unknown>): Fragment[] {
  const out: Fragment[] = [];
  for (const [key, value] of Object.entries(criteria)) {
    if (isEmpty(value)) continue;
    if (key === 'keyword') {
      const pattern = likePattern(String(value));
      out.push(sql`(${sql.join(m.keyword.map((e) => sql`${raw(e)}::text ILIKE ${pattern}`), sql` OR `)})`);
      continue;
    }
    if (key === 'orgId') {
      // An organisation filter means that organisation and everything below it.
      out.push(sql`t.org_id IN (SELECT id FROM organisation WHERE path LIKE (SELECT path FROM organisation WHERE id = ${value}) || '%')`);
      continue;
    }
    const s = m.searchable.get(key);
    if (!s) continue; // the body schema already refused it
    const col = raw(s.expr);
    if (s.mode === 'like') out.push(sql`${col} ILIKE ${likePattern(String(value))}`);
    else if (s.mode === 'eq') out.push(sql`${col} = ${value}`);
    else {
      const [from, to] = value as unknown[];
      if (!isEmpty(from)) out.push(sql`${col} >= ${from}`);
      if (!isEmpty(to)) out.push(sql`${col} <= ${to}`);
    }
  }
  return out;
}

/** The sort expression and direction of a body's order (the entity's default when absent or unknown). */
export function sortKey(m: EntityModel, order: QueryBody['order']): { expr: string; dir: 'ASC' | 'DESC' } {
  const expr = order?.property ? m.sortable.get(order.property) : undefined;
  if (!expr) return { expr: m.defaultOrder.expr, dir: m.defaultOrder.direction };
  return { expr, dir: order?.direction && /^desc/i.test(order.direction) ? 'DESC' : 'ASC' };
}

function orderClause(m: EntityModel, order: QueryBody['order']): Fragment {
  const { expr, dir } = sortKey(m, order);
  // The id breaks ties, so pages never overlap or skip rows however many rows share a value.
  return raw(`${expr} ${dir}, t.id ${dir}`);
}

/** Strips nulls so a response carries only what is set (the generated types mark fields optional). */
export function compact(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/** The list's WHERE: the caller's scope and the body's criteria (export uses the same). */
export const whereClause = (m: EntityModel, caller: Caller, criteria: QueryBody['criteria']): Fragment =>
  sql.join([scopeCondition(m, caller), ...criteriaConditions(m, criteria ?? {})], sql` AND `);

export async function queryPage(db: Kysely<unknown>, m: EntityModel, caller: Caller, body: QueryBody): Promise<Page<Row>> {
  const pageIndex = body.pageIndex ?? 1;
  const pageSize = body.pageSize ?? 20;
  const where = whereClause(m, caller, body.criteria);
  const [rows, count] = await Promise.all([
    sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m)} WHERE ${where} ORDER BY ${orderClause(m, body.order)} LIMIT ${pageSize} OFFSET ${(pageIndex - 1) * pageSize}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM ${fromClause(m)} WHERE ${where}`.execute(db),
  ]);
  return { data: rows.rows.map(compact), total: count.rows[0]?.n ?? 0, pageIndex, pageSize };
}

export async function getOne(db: Kysely<unknown>, m: EntityModel, caller: Caller, id: number): Promise<Row | undefined> {
  const r = await sql<Row>`SELECT ${selectList(m)} FROM ${fromClause(m)} WHERE t.id = ${id} AND ${scopeCondition(m, caller)}`.execute(db);
  return r.rows[0] && compact(r.rows[0]);
}

export interface OptionItem {
  value: number;
  label: string;
}

/** `{value, label}` pairs for selects; `q` narrows by label, at most `limit` rows. */
export async function options(db: Kysely<unknown>, m: EntityModel, caller: Caller, q: string | undefined, limit: number): Promise<OptionItem[]> {
  const filter = q ? sql`${raw(m.optionLabel)}::text ILIKE ${likePattern(q)}` : sql`TRUE`;
  const r = await sql<OptionItem>`SELECT t.id AS value, ${raw(m.optionLabel)} AS label FROM ${fromClause(m)} WHERE ${scopeCondition(m, caller)} AND ${filter} ORDER BY ${raw(m.optionLabel)}, t.id LIMIT ${limit}`.execute(db);
  return r.rows;
}
