import { requestConfig } from './services/http/config';
import { ensureCatalogue } from './session/bundledCatalogue';
import { applyDayjsLocale } from './session/dayjsLocale';
import { currentLanguage } from './session/language';
import { forgetSession } from './session/logout';
import { getToken } from './session/session';

// Umi runtime configuration: the request client of SPEC.md §7–§8, and the language rule of §4.
export const request = requestConfig({
  getToken,
  // The session is gone: drop it and start over at the login page.
  onSessionExpired: () => {
    forgetSession();
    window.location.reload();
  },
});

export const locale = {
  getLocale: currentLanguage,
};

applyDayjsLocale(currentLanguage());

/**
 * The first render waits for the shown language's words (one small chunk), so no page flashes
 * message keys. Should it fail to load, the page still renders: Root then asks the server for the
 * language's catalogue.
 */
export function render(oldRender: () => void): void {
  void ensureCatalogue(currentLanguage())
    .catch(() => undefined)
    .then(oldRender);
}
