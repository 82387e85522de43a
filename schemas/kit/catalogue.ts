import { localeSources } from '../generated/locales';
import { LANGUAGES, type Catalogue, type Language } from './i18n';
import { defaultCatalogueOf, installCatalogue } from './catalogueStore';

/**
 * Every language's catalogue, installed at once: the server's (and the tools', and the label
 * studio's) view. The console's first load imports `catalogueStore.ts` instead and installs the
 * language it shows.
 */
for (const lang of LANGUAGES) installCatalogue(lang, localeSources[lang]);

/** The catalogues as the locale files give them, never changed: what a reset goes back to. */
export const defaultCatalogues: Record<Language, Catalogue> = Object.fromEntries(
  LANGUAGES.map((l) => [l, defaultCatalogueOf(l)]),
) as Record<Language, Catalogue>;

export { applyCatalogue, buildCatalogue, catalogues, translate, translateWith, translator } from './catalogueStore';
