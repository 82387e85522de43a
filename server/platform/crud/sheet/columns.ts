import type { CellValue } from 'exceljs';
import { baseType, type PropertySchema } from '../../../../schemas/kit/entity';
import { catalogues } from '../../../../schemas/kit/catalogue';
import type { Translate } from '../../../../schemas/kit/i18n';
import type { EntityModel, RefModel } from '../model';
import { unneutralise } from './formulaText';
import { dateTimeIn, DEFAULT_TIME_ZONE, formatInZone } from './timeZone';

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

function columnFor(m: EntityModel, prop: string): SheetColumn {
  const ref = m.refs.find((r) => r.prop === prop);
  const key = ref ? ref.as : prop;
  return {
    key,
    labelKey: `${m.labelPrefix}.${key}`,
    schema: ref ? { type: 'string' } : m.schema.properties[prop],
    ...(ref ? { ref } : {}),
  };
}

function ordered(m: EntityModel, props: string[]): SheetColumn[] {
  return props
    .map((p, i) => ({ p, i }))
    .sort((a, b) => position(m.schema.properties[a.p]) - position(m.schema.properties[b.p]) || a.i - b.i)
    .map(({ p }) => columnFor(m, p));
}

/** Export: every stored property but the id, relations as their labels. */
export function exportColumns(m: EntityModel): SheetColumn[] {
  return ordered(
    m,
    [...m.columns.keys()].filter((p) => p !== 'id'),
  );
}

/** Import template: the writable properties, the organisation among them (blank: the caller's). */
export function importColumns(m: EntityModel): SheetColumn[] {
  return ordered(m, [...m.writable.keys()]);
}

/** Export columns an import recognises and ignores: what the export shows but nobody writes. */
export function readOnlyColumns(m: EntityModel): SheetColumn[] {
  const writable = new Set(importColumns(m).map((c) => c.key));
  return exportColumns(m).filter((c) => !writable.has(c.key));
}

/**
 * Read-only columns an update by import must leave as they are (refused when changed): all but those
 * the server rewrites on every write (the update time, the stamp), which an earlier import of the
 * same file has already moved on.
 */
export function guardedReadOnly(m: EntityModel, readOnly: SheetColumn[]): SheetColumn[] {
  const stamp = m.schema['x-entity'].stamp;
  const rewritten = new Set(['updatedAt', ...(stamp ? [stamp.operator, stamp.time] : [])]);
  return readOnly.filter((c) => !rewritten.has(c.key));
}

/** Renewal template: the matching property, then the renewed ones. */
export function renewColumns(m: EntityModel): SheetColumn[] {
  const renew = m.schema['x-entity'].renew!;
  return [renew.match, ...renew.fields].map((p) => columnFor(m, p));
}

const enumKey = (m: EntityModel, key: string, v: unknown) => `entity.${m.name}.enums.${key}.${String(v)}`;

/** A cell as the caller reads it: enum and yes/no labels in their language, JSON for structures. */
export function cellOut(m: EntityModel, col: SheetColumn, value: unknown, t: Translate, zone = DEFAULT_TIME_ZONE): string | number | null {
  if (value === null || value === undefined) return null;
  if (col.schema.enum) return t(enumKey(m, col.key, value));
  if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
  if (value instanceof Date) return col.schema.format === 'date' ? isoDate(value) : formatInZone(value, zone);
  if (typeof value === 'string' && col.schema.format === 'date-time' && !Number.isNaN(Date.parse(value)))
    return formatInZone(new Date(value), zone);
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? value : (value as number);
}

/** The plain value of an exceljs cell (rich text, hyperlinks and formulas reduced to what they show). */
export function cellIn(v: CellValue): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') {
    const s = v.trim();
    return s === '' ? undefined : unneutralise(s);
  }
  if (typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return v;
  if ('richText' in v) return cellIn(v.richText.map((r) => r.text).join(''));
  if ('formula' in v || 'sharedFormula' in v) return cellIn((v as { result?: CellValue }).result ?? null);
  if ('text' in v) return cellIn(v.text as CellValue);
  return undefined; // error cells
}

const norm = (s: string) => s.trim().toLowerCase();
const allLabels = (key: string) =>
  Object.values(catalogues)
    .map((c) => c[key])
    .filter((x): x is string => !!x);
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', ...allLabels('common.yes').map(norm)]);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', ...allLabels('common.no').map(norm)]);

const HINT_MARKERS = allLabels('sheet.hint.marker');
/** The template's hint row (its first cell starts with the hint marker of any of our languages). */
export const isHintRow = (cells: unknown[]) => typeof cells[0] === 'string' && HINT_MARKERS.some((h) => (cells[0] as string).startsWith(h));

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

/** 9999-12-31 in Excel's day count. */
const MAX_SERIAL = 2958466;
/** Excel's 1900 day count (day 25569 is 1970-01-01) → that day (and time) in UTC, as exceljs reads date cells. */
const fromSerial = (serial: number) => new Date(Math.round((serial - 25569) * 86400000));

const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/**
 * A cell value turned into what the create body expects, where the intent is unambiguous (a label
 * for its enum value, 是 for true, a numeric SIM for its digits, an Excel date for its day). Anything
 * else is passed through unchanged, so the schema's validation names what is wrong.
 */
export function coerce(m: EntityModel, col: SheetColumn, v: unknown, zone = DEFAULT_TIME_ZONE): unknown {
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
      // A date cell whose number format the reader does not know as a date (Excel's localised
      // formats such as 31, yyyy"年"m"月"d"日") arrives as its serial number: in a date column that
      // can only mean the day it counts to.
      if (typeof v === 'number' && (p.format === 'date' || p.format === 'date-time') && v >= 1 && v < MAX_SERIAL) v = fromSerial(v);
      if (p.format === 'date-time') return dateTimeIn(v, zone);
      if (v instanceof Date) return p.format === 'date' ? isoDate(v) : v.toISOString();
      return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  }
}
