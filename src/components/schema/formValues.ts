import dayjs, { type Dayjs } from 'dayjs';
import type { FieldDescriptor } from './formFields';

export type FormValues = Record<string, unknown>;
export type Body = Record<string, unknown>;

const DAY = 'YYYY-MM-DD';

/** A stored row → the form's initial values (dates as pickers want them, objects as JSON text). */
export function toFormValues(fields: readonly FieldDescriptor[], row: Readonly<Record<string, unknown>>): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    const v = row[f.name];
    if (v === null || v === undefined) continue;
    if (f.widget === 'date' || f.widget === 'dateTime') out[f.name] = typeof v === 'string' && dayjs(v).isValid() ? dayjs(v) : v;
    else if (f.widget === 'dateRange') out[f.name] = Array.isArray(v) ? v.map((d) => (d ? dayjs(String(d)) : null)) : v;
    else if (f.widget === 'json') out[f.name] = JSON.stringify(v, null, 2);
    else out[f.name] = v;
  }
  return out;
}

function dateText(v: unknown, widget: FieldDescriptor['widget']): unknown {
  if (!dayjs.isDayjs(v)) return v;
  const d = v as Dayjs;
  return widget === 'dateTime' ? d.toISOString() : d.format(DAY);
}

const NUMBER_TEXT = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** Number text → the number; text that is no finite number stays text, so the validator names the field. */
function numberValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return null;
  const n = Number(s);
  return NUMBER_TEXT.test(s) && Number.isFinite(n) ? n : s;
}

/** JSON text → its value; text that is not JSON stays text, so the validator names the field. */
function jsonValue(v: unknown): unknown {
  if (typeof v !== 'string' || v.trim() === '') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/**
 * Form values → the request body. Create leaves out what was not filled; edit sends every field of
 * the form, so a cleared optional field becomes null (stored as cleared) and a cleared required one
 * is left out (the validator reports it before any call).
 */
export function toBody(fields: readonly FieldDescriptor[], values: Readonly<FormValues>, mode: 'create' | 'update'): Body {
  const body: Body = {};
  for (const f of fields) {
    let v = values[f.name];
    if (f.widget === 'date' || f.widget === 'dateTime') v = dateText(v, f.widget);
    else if (f.widget === 'dateRange' && Array.isArray(v)) v = v.map((d) => (d ? dateText(d, 'date') : null));
    else if (f.widget === 'json') v = jsonValue(v);
    else if (f.widget === 'number') v = numberValue(v);
    if (v === undefined || v === null) {
      if (mode === 'update' && !f.required) body[f.name] = null;
      continue;
    }
    body[f.name] = v;
  }
  return body;
}
