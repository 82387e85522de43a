import dayjs from 'dayjs';
import type { EntitySchema, PropertySchema } from '../../../schemas/kit/entity';
import type { ListOrder } from './pageContract';
import { baseType, isDateTime } from './labels';

type Scalar = string | number | boolean | null;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A search-form value as the property's type: selects hand back text ('true', '3'), pickers dayjs. */
function scalarOf(p: PropertySchema, v: unknown, bound: 'start' | 'end' = 'start'): Scalar {
  if (blank(v)) return null;
  if (dayjs.isDayjs(v)) v = v.format('YYYY-MM-DD');
  const t = baseType(p);
  if (t === 'boolean') return v === true || v === 'true';
  if (t === 'integer' || t === 'number') {
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    return Number.isFinite(n) ? n : String(v).trim();
  }
  const s = String(v).trim();
  // A day picked for a timestamp means the whole day, in the browser's time zone.
  if (isDateTime(p) && /^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const day = dayjs(s);
    return (bound === 'start' ? day.startOf('day') : day.endOf('day')).toISOString();
  }
  return s;
}

/**
 * Search-form values → `criteria` as the server's query body accepts it (`queryBodySchema`): only
 * searchable properties, `like`/`eq` as one value, `range` as `[from, to]` with null for an open end,
 * the keyword when the schema has one; empty inputs are left out.
 */
export function toCriteria(schema: EntitySchema, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const criteria: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(schema.properties)) {
    const mode = p['x-ui']?.search;
    const v = values[name];
    if (!mode || blank(v)) continue;
    if (mode === 'range') {
      const [from, to] = Array.isArray(v) ? v : [v, null];
      const range = [scalarOf(p, from, 'start'), scalarOf(p, to, 'end')];
      if (range.some((x) => x !== null)) criteria[name] = range;
    } else {
      criteria[name] = scalarOf(p, v);
    }
  }
  const keyword = values.keyword;
  if (schema['x-entity'].keyword?.length && typeof keyword === 'string' && keyword.trim()) criteria.keyword = keyword.trim();
  return criteria;
}

/** ProTable's sort (`{field: 'ascend' | 'descend' | null}`) → the query's order, sortable properties only. */
export function toOrder(
  schema: EntitySchema,
  sort: Readonly<Record<string, 'ascend' | 'descend' | null | undefined>>,
): ListOrder | undefined {
  for (const [property, dir] of Object.entries(sort)) {
    if (!dir || !schema.properties[property]?.['x-ui']?.sort) continue;
    return { property, direction: dir === 'descend' ? 'DESC' : 'ASC' };
  }
  return undefined;
}
