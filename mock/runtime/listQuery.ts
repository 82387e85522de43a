import { KEYWORD_SEPARATOR, searchableProperties, sortableProperties, type EntitySchema, type SearchMode } from '../../schemas/kit/entity';

/**
 * The generic list query in memory, with the server's semantics (server/crud/query.ts): criteria
 * only on searchable properties, `like` and `keyword` = case-insensitive contains, `range` =
 * inclusive bounds, `orgId` = that organisation's subtree; sort nulls last ascending and first
 * descending as PostgreSQL does, ties broken by id in the sort's direction.
 */
export type View = { id: number } & Record<string, unknown>;

export interface ListBody {
  criteria?: Record<string, unknown> | null;
  order?: { direction?: string | null; property?: string | null } | null;
  pageIndex?: number;
  pageSize?: number;
}

const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.every(isEmpty));
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v)).toLowerCase();
export const containsText = (hay: unknown, needle: string) => hay !== null && hay !== undefined && text(hay).includes(needle.toLowerCase());

function matches(mode: SearchMode, v: unknown, criterion: unknown): boolean {
  if (mode === 'like') return containsText(v, String(criterion));
  if (mode === 'eq') return v === criterion;
  // SQL comparisons with NULL are never true.
  if (v === null || v === undefined) return false;
  const [from, to] = criterion as unknown[];
  return (isEmpty(from) || compareValues(v, from) >= 0) && (isEmpty(to) || compareValues(v, to) <= 0);
}

/** Ascending order of two non-null values: numbers by value, booleans false first, text by code point. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rows passing every criterion; `inOrgSubtree(row, orgId)` decides the orgId criterion. */
export function filterRows(schema: EntitySchema, rows: View[], criteria: Record<string, unknown>, inOrgSubtree: (row: View, orgId: unknown) => boolean): View[] {
  const modes = new Map(searchableProperties(schema).map(([n, , mode]) => [n, mode]));
  const keywordProps = schema['x-entity'].keyword ?? [];
  const tests: Array<(r: View) => boolean> = [];
  for (const [key, value] of Object.entries(criteria)) {
    if (isEmpty(value)) continue;
    if (key === 'keyword') {
      const k = String(value).split(KEYWORD_SEPARATOR).join('');
      tests.push((r) => keywordProps.some((p) => containsText(r[p], k)));
    } else if (key === 'orgId') tests.push((r) => inOrgSubtree(r, value));
    else {
      const mode = modes.get(key);
      if (mode) tests.push((r) => matches(mode, r[key], value));
    }
  }
  return rows.filter((r) => tests.every((t) => t(r)));
}

export function sortRows(schema: EntitySchema, rows: View[], order: ListBody['order']): View[] {
  const x = schema['x-entity'];
  const explicit = order?.property && sortableProperties(schema).includes(order.property);
  const property = explicit ? order!.property! : (x.defaultOrder?.property ?? 'id');
  const dir = explicit ? (order?.direction && /^desc/i.test(order.direction) ? -1 : 1) : x.defaultOrder?.direction === 'DESC' ? -1 : 1;
  const nullish = (v: unknown) => v === null || v === undefined;
  return [...rows].sort((a, b) => {
    const va = a[property];
    const vb = b[property];
    // Ascending, a null is larger than any value (so last); descending reverses it (so first).
    const c = nullish(va) ? (nullish(vb) ? 0 : 1) : nullish(vb) ? -1 : compareValues(va, vb);
    return dir * (c || a.id - b.id);
  });
}
