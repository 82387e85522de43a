import { addLocale } from '@umijs/max';
import type { LocaleSource } from '../../schemas/generated/locales';
import { catalogues, installCatalogue } from '../../schemas/kit/catalogueStore';
import type { Language } from '../../schemas/kit/i18n';

/** Each language's locale files, a chunk of its own: the first load carries only the one shown. */
const SOURCES: Record<Language, () => Promise<{ localeSource: LocaleSource }>> = {
  'zh-CN': () => import(/* webpackChunkName: "locale-zh-CN" */ '../../schemas/generated/locales.zh-CN'),
  'en-US': () => import(/* webpackChunkName: "locale-en-US" */ '../../schemas/generated/locales.en-US'),
  'es-ES': () => import(/* webpackChunkName: "locale-es-ES" */ '../../schemas/generated/locales.es-ES'),
  'ja-JP': () => import(/* webpackChunkName: "locale-ja-JP" */ '../../schemas/generated/locales.ja-JP'),
};

const loading = new Map<Language, Promise<void>>();

/**
 * Loads a language's bundled catalogue once and puts it in use: in the shared catalogue the
 * console's translators read, and in Umi's intl (which keeps the language's dayjs locale when none
 * is given, plugin-locale's addLocale). A failed load is tried again on the next call.
 */
export function ensureCatalogue(lang: Language): Promise<void> {
  let pending = loading.get(lang);
  if (!pending) {
    pending = SOURCES[lang]().then(({ localeSource }) => {
      installCatalogue(lang, localeSource);
      addLocale(lang, catalogues[lang], undefined as unknown as Parameters<typeof addLocale>[2]);
    });
    loading.set(lang, pending);
    pending.catch(() => loading.delete(lang));
  }
  return pending;
}
