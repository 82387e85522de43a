import type { FromSchema } from 'json-schema-to-ts';
import { LANGUAGES, type Catalogue, type Language } from './i18n';

/**
 * The rules of label and message overrides (issue 17), shared by the server (which enforces them)
 * and the console (which checks an edit before sending it, in the same words).
 */

/** Longest text an override may hold. */
export const LABEL_VALUE_MAX = 500;

/** The `{name}` placeholders of a template, each once, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))];
}

/** Why an edited text may not replace the default (a message key and its parameters), or null. */
export interface LabelProblem {
  key: string;
  params: Record<string, string>;
}

/**
 * A new text for `key` keeps every placeholder its default has and adds none it lacks: a dropped
 * `{limit}` would hide the number, and an unknown one would be shown to users as written.
 */
export function placeholderProblem(defaultText: string, value: string): LabelProblem | null {
  const wanted = placeholders(defaultText);
  const have = placeholders(value);
  const missing = wanted.find((p) => !have.includes(p));
  if (missing) return { key: 'labels.placeholderMissing', params: { placeholder: `{${missing}}` } };
  const extra = have.find((p) => !wanted.includes(p));
  if (extra)
    return {
      key: 'labels.placeholderUnknown',
      params: { placeholder: `{${extra}}`, allowed: wanted.map((p) => `{${p}}`).join(' ') || '—' },
    };
  return null;
}

/** The languages a key still lacks an edit in: an edit is published only when this is empty. */
export function missingLanguages(drafted: ReadonlySet<Language>): Language[] {
  return LANGUAGES.filter((l) => !drafted.has(l));
}

/** One override as stored and answered. */
export const labelOverrideSchema = {
  type: 'object',
  required: ['locale', 'key', 'published', 'draft', 'updatedBy', 'updatedAt', 'publishedAt'],
  properties: {
    locale: { type: 'string', enum: LANGUAGES },
    key: { type: 'string' },
    published: { type: ['string', 'null'], description: 'the text users see now; null while the edit is only a draft' },
    draft: { type: ['string', 'null'], description: 'an edit not yet published; null when there is none' },
    updatedBy: { type: 'string' },
    updatedAt: { type: 'string', format: 'date-time' },
    publishedAt: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export type LabelOverride = FromSchema<typeof labelOverrideSchema>;

/** A catalogue with published overrides laid over the defaults. */
export function effectiveCatalogue(defaults: Catalogue, published: ReadonlyMap<string, string>): Catalogue {
  const out = { ...defaults };
  for (const [k, v] of published) if (k in out) out[k] = v;
  return out;
}
