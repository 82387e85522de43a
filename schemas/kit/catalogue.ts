import { localeSources } from '../generated/locales';
import {
  DEFAULT_LANGUAGE,
  flatten,
  interpolate,
  LANGUAGES,
  type Catalogue,
  type Language,
  type MessageParams,
  type Translate,
} from './i18n';

/**
 * The flat message catalogue of each language: shared messages plus every entity's labels under
 * `entity.<name>.…`. Standard field labels (`common.fields.*`) fill each entity's gaps, so an
 * analyst labels `createdAt` once.
 */
export function buildCatalogue(src: { messages: unknown; entities: Record<string, unknown> }): Catalogue {
  const out = flatten(src.messages);
  const common = Object.entries(out).filter(([k]) => k.startsWith('common.fields.'));
  for (const [name, labels] of Object.entries(src.entities)) {
    for (const [k, v] of common) out[`entity.${name}.fields.${k.slice('common.fields.'.length)}`] = v;
    flatten(labels, `entity.${name}`, out);
  }
  return out;
}

/** The catalogues as the locale files give them, never changed: what a reset goes back to. */
export const defaultCatalogues: Record<Language, Catalogue> = Object.fromEntries(
  LANGUAGES.map((l) => [l, buildCatalogue(localeSources[l])]),
) as Record<Language, Catalogue>;

/**
 * The catalogues in use. In the console, the defaults with the published overrides it loaded laid
 * over them (`applyCatalogue`); the server never changes them (its overrides live with each app).
 */
export const catalogues: Record<Language, Catalogue> = Object.fromEntries(LANGUAGES.map((l) => [l, { ...defaultCatalogues[l] }])) as Record<
  Language,
  Catalogue
>;

/** The console: a language's effective catalogue, as the server answers it, replaces the one in use. */
export function applyCatalogue(lang: Language, effective: Catalogue): void {
  for (const [k, v] of Object.entries(effective)) if (k in defaultCatalogues[lang] && typeof v === 'string') catalogues[lang][k] = v;
}

/** Translate in a language, falling back to zh-CN, then to the key itself. */
export function translate(lang: Language, key: string, params?: MessageParams): string {
  const template = catalogues[lang][key] ?? catalogues[DEFAULT_LANGUAGE][key];
  return template === undefined ? key : interpolate(template, params);
}

/** Translate with some templates replaced (the server's published overrides of that language). */
export function translateWith(
  lang: Language,
  overrides: ReadonlyMap<string, string> | undefined,
  key: string,
  params?: MessageParams,
): string {
  const template = overrides?.get(key);
  return template === undefined ? translate(lang, key, params) : interpolate(template, params);
}

export const translator =
  (lang: Language): Translate =>
  (key, params) =>
    translate(lang, key, params);
