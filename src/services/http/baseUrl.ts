/**
 * Base address of the API (SPEC.md §7): a development address when the console runs on localhost or
 * a 192.168 address (the dev server proxies it), otherwise the page's origin plus /api.
 */
export interface PageLocation {
  hostname: string;
  origin: string;
}

// Set at build time by .umirc.ts `define`; same-origin /api unless told otherwise.
export const DEV_API_BASE: string = process.env.API_BASE_DEV || '/api';

export const isDevelopmentHost = (hostname: string): boolean => hostname === 'localhost' || /^192\.168\.\d{1,3}\.\d{1,3}$/.test(hostname);

export function apiBase(location: PageLocation, devBase: string = DEV_API_BASE): string {
  return isDevelopmentHost(location.hostname) ? devBase : `${location.origin}/api`;
}
