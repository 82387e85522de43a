import type { LocaleSource } from '../generated/locales';
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
 * The catalogues in use, one language at a time. The server installs all four at start
 * (`catalogue.ts`); the console only the language it shows, and another on a switch
 * (`src/session/bundledCatalogue.ts`), so its first load carries one language's words.
 */

/**
 * The flat message catalogue of a language: shared messages plus every entity's labels under
 * `entity.<name>.…`. Standard field labels (`common.fields.*`) fill each entity's gaps, so an
 * analyst labels `createdAt` once.
 */
export function buildCatalogue(src: LocaleSource): Catalogue {
  const out = flatten(src.messages);
  const common = Object.entries(out).filter(([k]) => k.startsWith('common.fields.'));
  for (const [name, labels] of Object.entries(src.entities)) {
    for (const [k, v] of common) out[`entity.${name}.fields.${k.slice('common.fields.'.length)}`] = v;
    flatten(labels, `entity.${name}`, out);
  }
  return out;
}

/** The catalogues as the locale files give them, never changed: what a reset goes back to. */
const defaults: Partial<Record<Language, Catalogue>> = {};

/**
 * The catalogues in use: an installed language's defaults with the published overrides the console
 * loaded laid over them (`applyCatalogue`); empty until installed. The server never changes them
 * (its overrides live with each app). Each language keeps one object, so a holder sees installs.
 */
export const catalogues: Record<Language, Catalogue> = Object.fromEntries(LANGUAGES.map((l) => [l, {}])) as Record<Language, Catalogue>;

/** Puts a language's locale files in use; once (a second install would drop applied overrides). */
export function installCatalogue(lang: Language, src: LocaleSource): void {
  if (defaults[lang]) return;
  const built = buildCatalogue(src);
  defaults[lang] = built;
  Object.assign(catalogues[lang], built);
}

export const isInstalled = (lang: Language): boolean => defaults[lang] !== undefined;

/** An installed language's default catalogue (empty before its install). */
export const defaultCatalogueOf = (lang: Language): Catalogue => defaults[lang] ?? {};

/** The console: a language's effective catalogue, as the server answers it, replaces the one in use. */
export function applyCatalogue(lang: Language, effective: Catalogue): void {
  const known = defaultCatalogueOf(lang);
  for (const [k, v] of Object.entries(effective)) if (k in known && typeof v === 'string') catalogues[lang][k] = v;
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
