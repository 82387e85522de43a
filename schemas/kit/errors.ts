import type { ErrorObject } from 'ajv';
import type { MessageParams, Translate } from './i18n';

/**
 * A validation failure as data: which field, which message key, with which parameters.
 * The server sends these (rendered) in 400 bodies; the console renders them on its form fields,
 * so both sides show the same words.
 */
export interface FieldError {
  /** Dotted path of the field, e.g. `name` or `criteria.licence`. */
  field: string;
  key: string;
  params: MessageParams;
  /** Catalogue key of the field's label; absent for unknown fields (their raw name is shown). */
  labelKey?: string;
  /** Parameters naming other fields: parameter → catalogue key of that field's label. */
  labelParams?: Record<string, string>;
}

interface SchemaWithMessages {
  properties?: Record<string, { 'x-messages'?: Record<string, string> }>;
  'x-messages'?: Record<string, string>;
}

// When several errors hit one value (anyOf branches), the most telling one is reported.
const PRIORITY = [
  'required',
  'format',
  'x-notBefore',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'pattern',
  'enum',
  'minItems',
  'maxItems',
  'type',
  'const',
  'anyOf',
  'oneOf',
];
const rank = (k: string) => {
  const i = PRIORITY.indexOf(k);
  return i < 0 ? PRIORITY.length : i;
};

const segments = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function genericKey(e: ErrorObject): string {
  if (e.keyword === 'format') {
    const f = String((e.params as { format?: string }).format);
    if (f === 'phone') return 'validation.phone';
    if (f === 'contact-phone') return 'validation.contactPhone';
    if (f === 'licence-plate') return 'validation.licencePlate';
    if (f === 'vin') return 'validation.vin';
    if (f === 'licence-number') return 'validation.licenceNumber';
    if (f === 'date' || f === 'date-time') return 'validation.date';
    if (f === 'external-link') return 'validation.externalLink';
    if (f === 'login-password') return 'validation.loginPassword.format';
    if (f === 'strong-password') return 'validation.password.tooWeak';
    return 'validation.format';
  }
  if (e.keyword === 'const' || e.keyword === 'anyOf' || e.keyword === 'oneOf') return 'validation.invalid';
  if (e.keyword === 'x-notBefore') return 'validation.notBefore';
  if (e.keyword === 'type') {
    const t = String((e.params as { type?: string }).type);
    if (t.includes('integer')) return 'validation.integer';
    if (t.includes('number')) return 'validation.number';
  }
  return `validation.${e.keyword}`;
}

/**
 * Ajv errors (compiled with `verbose: true`) → one FieldError per field.
 * `labelPrefix` (e.g. `entity.vehicleBrand.fields`) names where field labels live.
 */
export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined, labelPrefix: string): FieldError[] {
  const byField = new Map<string, { e: FieldError; rank: number }>();
  for (const e of errors ?? []) {
    const path = segments(e.instancePath);
    let fieldPath = path;
    let keyword = e.keyword;
    let messages: Record<string, string> | undefined = (e.parentSchema as SchemaWithMessages | undefined)?.['x-messages'];
    let known = true;

    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      fieldPath = [...path, missing];
      messages = (e.parentSchema as SchemaWithMessages | undefined)?.properties?.[missing]?.['x-messages'];
    } else if (e.keyword === 'additionalProperties') {
      fieldPath = [...path, (e.params as { additionalProperty: string }).additionalProperty];
      known = false;
    } else if (e.data === '' && ['minLength', 'format', 'pattern'].includes(e.keyword)) {
      keyword = 'required'; // an empty string is a missing value to a person
    }

    const leaf = [...fieldPath].reverse().find((s) => !/^\d+$/.test(s)) ?? '';
    const field = fieldPath.join('.');
    let key = messages?.[keyword] ?? (keyword === 'required' ? 'validation.required' : genericKey(e));
    if (e.keyword === 'additionalProperties') key = path[0] === 'criteria' ? 'validation.notSearchable' : 'validation.unknownField';
    if (e.keyword === 'enum' && path[0] === 'order' && path[1] === 'property') key = 'validation.notSortable';

    const params: MessageParams = {};
    const limit = (e.params as { limit?: number }).limit;
    if (limit !== undefined) params.limit = limit;
    if (!known || key === 'validation.notSortable') params.field = String(key === 'validation.notSortable' ? e.data : leaf);
    if (e.keyword === 'type') params.type = String((e.params as { type: string }).type);
    const labelParams = e.keyword === 'x-notBefore' ? { other: `${labelPrefix}.${(e.params as { sibling: string }).sibling}` } : undefined;

    const candidate: FieldError = {
      field,
      key,
      params,
      ...(known && key !== 'validation.notSortable' ? { labelKey: `${labelPrefix}.${leaf}` } : {}),
      ...(labelParams ? { labelParams } : {}),
    };
    const r = rank(keyword);
    const seen = byField.get(field);
    if (!seen || r < seen.rank) byField.set(field, { e: candidate, rank: r });
  }
  // A person reads the first message first: missing and wrong values before unknown extras.
  const weight = (e: FieldError) => (e.key === 'validation.unknownField' || e.key === 'validation.notSearchable' ? 1 : 0);
  return [...byField.values()].map((x) => x.e).sort((a, b) => weight(a) - weight(b));
}

/** The text of one field error in a language (the field label translated first). */
export function renderFieldError(fe: FieldError, t: Translate): string {
  const params = { ...fe.params };
  for (const [p, key] of Object.entries(fe.labelParams ?? {})) params[p] = t(key);
  if (fe.labelKey) {
    const label = t(fe.labelKey);
    params.field = label === fe.labelKey ? fe.field.split('.').pop() : label;
  }
  return t(fe.key, params);
}
