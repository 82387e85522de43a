import { defaultCatalogues } from '../../../../schemas/kit/catalogue';
import { interpolate, LANGUAGES, type Catalogue, type Language, type MessageParams, type Translate } from '../../../../schemas/kit/i18n';
import { missingLanguages, type LabelOverride } from '../../../../schemas/kit/labelRules';

/** The label studio's rows, pure: which keys a group lists, and each key's state in four languages. */

/** A group of keys: an entity's labels (title, fields, enum values) or the validation messages. */
export type LabelGroup = { kind: 'entity'; entity: string } | { kind: 'messages' };

export const VALIDATION_PREFIX = 'validation.';

export function groupKeys(group: LabelGroup): string[] {
  const prefix = group.kind === 'entity' ? `entity.${group.entity}.` : VALIDATION_PREFIX;
  return Object.keys(defaultCatalogues['zh-CN'])
    .filter((k) => k.startsWith(prefix))
    .sort();
}

export interface LabelRow {
  key: string;
  /** What users see now, per language (published overrides included). */
  texts: Record<Language, string>;
  drafts: Partial<Record<Language, string>>;
  published: Partial<Record<Language, string>>;
  /** Languages still without a draft, while there is any draft. */
  missing: Language[];
}

export type Catalogues = Record<Language, Catalogue>;

export function labelRows(keys: readonly string[], effective: Catalogues, overrides: readonly LabelOverride[], query = ''): LabelRow[] {
  const byKey = new Map<string, LabelOverride[]>();
  for (const o of overrides) byKey.set(o.key, [...(byKey.get(o.key) ?? []), o]);
  const q = query.trim().toLowerCase();
  const rows: LabelRow[] = [];
  for (const key of keys) {
    const own = byKey.get(key) ?? [];
    const texts = Object.fromEntries(LANGUAGES.map((l) => [l, effective[l][key] ?? defaultCatalogues[l][key] ?? ''])) as Record<
      Language,
      string
    >;
    const drafts = Object.fromEntries(own.filter((o) => o.draft !== null).map((o) => [o.locale, o.draft!]));
    const published = Object.fromEntries(own.filter((o) => o.published !== null).map((o) => [o.locale, o.published!]));
    const row = {
      key,
      texts,
      drafts,
      published,
      missing: Object.keys(drafts).length ? missingLanguages(new Set(Object.keys(drafts) as Language[])) : [],
    };
    if (
      q &&
      !key.toLowerCase().includes(q) &&
      !Object.values(texts).some((x) => x.toLowerCase().includes(q)) &&
      !Object.values(drafts).some((x) => x.toLowerCase().includes(q))
    )
      continue;
    rows.push(row);
  }
  return rows;
}

/** A translator for the preview: a draft first, then what users see now, then the key. */
export function previewTranslator(lang: Language, effective: Catalogues, overrides: readonly LabelOverride[]): Translate {
  const drafts = new Map(overrides.filter((o) => o.locale === lang && o.draft !== null).map((o) => [o.key, o.draft!]));
  return (key: string, params?: MessageParams) => {
    const template = drafts.get(key) ?? effective[lang][key] ?? defaultCatalogues[lang][key];
    return template === undefined ? key : interpolate(template, params);
  };
}
