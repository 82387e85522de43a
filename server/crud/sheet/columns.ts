import type { CellValue } from 'exceljs';
import type { PropertySchema } from '../../../schemas/kit/entity';
import { catalogues } from '../../../schemas/kit/catalogue';
import type { Translate } from '../../../schemas/kit/i18n';
import type { EntityModel, RefModel } from '../model';

/** One spreadsheet column: the property it shows (a relation shows its label, never the id). */
export interface SheetColumn {
  /** Property of a list row (export) or of the imported row before relations are resolved. */
  key: string;
  labelKey: string;
  schema: PropertySchema;
  /** Set when the column carries a relation's label; import resolves it to `ref.prop`. */
  ref?: RefModel;
}

const position = (p: PropertySchema) => p['x-ui']?.order ?? 999;
const baseType = (p: PropertySchema) => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type);

function columnFor(m: EntityModel, prop: string): SheetColumn {
  const ref = m.refs.find((r) => r.prop === prop);
  const key = ref ? ref.as : prop;
  return { key, labelKey: `${m.labelPrefix}.${key}`, schema: ref ? { type: 'string' } : m.schema.properties[prop], ...(ref ? { ref } : {}) };
}

function ordered(m: EntityModel, props: string[]): SheetColumn[] {
  return props
    .map((p, i) => ({ p, i }))
    .sort((a, b) => position(m.schema.properties[a.p]) - position(m.schema.properties[b.p]) || a.i - b.i)
    .map(({ p }) => columnFor(m, p));
}

/** Export: every stored property but the id, relations as their labels. */
export function exportColumns(m: EntityModel): SheetColumn[] {
  return ordered(m, [...m.columns.keys()].filter((p) => p !== 'id'));
}

/** Import template: the writable properties (rows go to the caller's organisation). */
export function importColumns(m: EntityModel): SheetColumn[] {
  return ordered(m, [...m.writable.keys()].filter((p) => p !== 'orgId'));
}

/** Renewal template: the matching property, then the renewed ones. */
export function renewColumns(m: EntityModel): SheetColumn[] {
  const renew = m.schema['x-entity'].renew!;
  return [renew.match, ...renew.fields].map((p) => columnFor(m, p));
}

const enumKey = (m: EntityModel, key: string, v: unknown) => `entity.${m.name}.enums.${key}.${String(v)}`;

/** A cell as the caller reads it: enum and yes/no labels in their language, JSON for structures. */
export function cellOut(m: EntityModel, col: SheetColumn, value: unknown, t: Translate): string | number | null {
  if (value === null || value === undefined) return null;
  if (col.schema.enum) return t(enumKey(m, col.key, value));
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value as string | number;
}

/** The plain value of an exceljs cell (rich text, hyperlinks and formulas reduced to what they show). */
export function cellIn(v: CellValue): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if ('richText' in v) return cellIn(v.richText.map((r) => r.text).join(''));
  if ('formula' in v || 'sharedFormula' in v) return cellIn((v as { result?: CellValue }).result ?? null);
  if ('text' in v) return cellIn(v.text as CellValue);
  return undefined; // error cells
}

const norm = (s: string) => s.trim().toLowerCase();
const allLabels = (key: string) => Object.values(catalogues).map((c) => c[key]).filter((x): x is string => !!x);
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', ...allLabels('common.yes').map(norm)]);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', ...allLabels('common.no').map(norm)]);

/** Header text (a label in any of our languages, or the property name) → column. */
export function headerIndex(cols: SheetColumn[]): Map<string, SheetColumn> {
  const out = new Map<string, SheetColumn>();
  const ambiguous = new Set<string>();
  for (const c of cols) {
    for (const h of [c.key, ...(c.ref ? [c.ref.prop] : []), ...allLabels(c.labelKey)].map(norm)) {
      if (out.has(h) && out.get(h) !== c) ambiguous.add(h);
      else out.set(h, c);
    }
  }
  for (const h of ambiguous) out.delete(h);
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/**
 * A cell value turned into what the create body expects, where the intent is unambiguous (a label
 * for its enum value, 是 for true, a numeric SIM for its digits, an Excel date for its day). Anything
 * else is passed through unchanged, so the schema's validation names what is wrong.
 */
export function coerce(m: EntityModel, col: SheetColumn, v: unknown): unknown {
  const p = col.schema;
  const type = baseType(p);
  if (p.enum) {
    if (p.enum.includes(v as string)) return v;
    const hit = p.enum.find((e) => e !== null && allLabels(enumKey(m, col.key, e)).some((l) => norm(l) === norm(String(v))));
    return hit ?? v;
  }
  switch (type) {
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      const w = norm(String(v));
      return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : v;
    }
    case 'integer':
    case 'number':
      return typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
    case 'object':
    case 'array':
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    default:
      if (v instanceof Date) return p.format === 'date' ? isoDate(v) : v.toISOString();
      return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  }
}
