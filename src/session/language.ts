import { DEFAULT_LANGUAGE, LANGUAGES, matchLanguage, type Language } from '../../schemas/kit/i18n';

/** The storage key Umi's setLocale writes. */
export const LANGUAGE_KEY = 'umi_locale';

/** SPEC.md §4: the saved language, else the first browser language we speak, else zh-CN. */
export function resolveLanguage(saved: string | null, browserLanguages: readonly string[]): Language {
  if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Language;
  for (const tag of browserLanguages) {
    const lang = matchLanguage(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

export function currentLanguage(): Language {
  const nav = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return resolveLanguage(typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_KEY), nav);
}
