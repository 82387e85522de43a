import { addLocale } from '@umijs/max';
import { applyCatalogue } from '../../schemas/kit/catalogueStore';
import type { Language } from '../../schemas/kit/i18n';
import { fetchCatalogue } from '../services/labels';
import { ensureCatalogue } from './bundledCatalogue';

/**
 * Loads a language's effective catalogue from the server (published label and message overrides
 * included) and puts it in use: in the shared catalogue the console's translators read, and in
 * Umi's intl, which re-renders when it is the language shown. No rebuild: an analyst's publish
 * shows at the next load, or at once in the console that published it.
 * Offline or failing, the bundled catalogue stays in use.
 */
export async function loadCatalogue(lang: Language): Promise<void> {
  let effective;
  try {
    // Overrides apply to the keys the bundled catalogue has, so it is in first (if it loads at all).
    [effective] = await Promise.all([fetchCatalogue(lang), ensureCatalogue(lang).catch(() => undefined)]);
  } catch {
    return;
  }
  applyCatalogue(lang, effective);
  // Umi keeps the language's dayjs locale when none is given (plugin-locale's addLocale).
  addLocale(lang, effective, undefined as unknown as Parameters<typeof addLocale>[2]);
}
