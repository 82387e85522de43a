import { requestConfig } from './services/http/config';
import { applyDayjsLocale } from './shell/dayjsLocale';
import { currentLanguage } from './shell/language';

// Umi runtime configuration: the request client of SPEC.md §7–§8, and the language rule of §4.
export const request = requestConfig();

export const locale = {
  getLocale: currentLanguage,
};

applyDayjsLocale(currentLanguage());
