import { localeSources } from '../generated/locales';
import { DEFAULT_LANGUAGE, flatten, interpolate, LANGUAGES, type Catalogue, type Language, type MessageParams, type Translate } from './i18n';

/**
 * The flat message catalogue of each language: shared messages plus every entity's labels under
 * `entity.<name>.…`. Standard field labels (`common.fields.*`) fill each entity's gaps, so an
 * analyst labels `createdAt` once.
 */
function build(lang: Language): Catalogue {
  const src = localeSources[lang];
  const out = flatten(src.messages);
  const common = Object.entries(out).filter(([k]) => k.startsWith('common.fields.'));
  for (const [name, labels] of Object.entries(src.entities)) {
    for (const [k, v] of common) out[`entity.${name}.fields.${k.slice('common.fields.'.length)}`] = v;
    flatten(labels, `entity.${name}`, out);
  }
  return out;
}

export const catalogues: Record<Language, Catalogue> = Object.fromEntries(LANGUAGES.map((l) => [l, build(l)])) as Record<Language, Catalogue>;

/** Translate in a language, falling back to zh-CN, then to the key itself. */
export function translate(lang: Language, key: string, params?: MessageParams): string {
  const template = catalogues[lang][key] ?? catalogues[DEFAULT_LANGUAGE][key];
  return template === undefined ? key : interpolate(template, params);
}

export const translator =
  (lang: Language): Translate =>
  (key, params) =>
    translate(lang, key, params);
