/**
 * Reverse-geocoding services an operator may configure (GEOCODE_PROVIDER): a Nominatim-compatible
 * server (OpenStreetMap's public one or the operator's own), Tianditu (天地图) or AMap (高德) with
 * the operator's key. Each answers a WGS-84 position's address as text, or null when it has none.
 */

import gcoord from 'gcoord';

export type ProviderName = 'nominatim' | 'tianditu' | 'amap';
export const PROVIDER_NAMES: readonly ProviderName[] = ['nominatim', 'tianditu', 'amap'];

export interface GeocodeProvider {
  name: ProviderName;
  /** Positions it is asked at most this often (Nominatim's public server allows one a second). */
  minIntervalMs: number;
  reverse(latitude: number, longitude: number, lang: string, signal: AbortSignal): Promise<string | null>;
}

export interface ProviderConfig {
  provider: ProviderName;
  /** The service's address (Nominatim: the folder holding /reverse); defaults per provider. */
  url?: string;
  /** Tianditu's tk, AMap's key. */
  key?: string;
  /** What Nominatim's usage policy asks every client to send. */
  userAgent: string;
}

const DEFAULT_URL: Record<ProviderName, string> = {
  nominatim: 'https://nominatim.openstreetmap.org',
  tianditu: 'https://api.tianditu.gov.cn',
  amap: 'https://restapi.amap.com',
};

async function getJson(url: string, signal: AbortSignal, headers: Record<string, string>): Promise<unknown> {
  const r = await fetch(url, { signal, headers: { accept: 'application/json', ...headers } });
  if (!r.ok) throw new Error(`geocoder answered ${r.status}`);
  return r.json();
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function makeProvider(c: ProviderConfig): GeocodeProvider {
  const base = (c.url ?? DEFAULT_URL[c.provider]).replace(/\/+$/, '');
  const headers = { 'user-agent': c.userAgent };
  if (c.provider === 'nominatim')
    return {
      name: 'nominatim',
      // The public server's policy: at most one request a second; an own server may be asked faster.
      minIntervalMs: c.url ? 0 : 1000,
      async reverse(lat, lng, lang, signal) {
        const q = new URLSearchParams({ format: 'jsonv2', lat: String(lat), lon: String(lng), 'accept-language': lang, zoom: '18' });
        const body = (await getJson(`${base}/reverse?${q}`, signal, headers)) as { display_name?: unknown; error?: unknown };
        return text(body.display_name);
      },
    };
  if (!c.key) throw new Error(`GEOCODE_KEY is needed for GEOCODE_PROVIDER=${c.provider}`);
  const key = c.key;
  if (c.provider === 'tianditu')
    return {
      name: 'tianditu',
      minIntervalMs: 0,
      // Tianditu's coordinates are CGCS2000, within centimetres of WGS-84.
      async reverse(lat, lng, _lang, signal) {
        const post = JSON.stringify({ lon: lng, lat, ver: 1 });
        const q = new URLSearchParams({ postStr: post, type: 'geocode', tk: key });
        const body = (await getJson(`${base}/geocoder?${q}`, signal, headers)) as {
          status?: unknown;
          result?: { formatted_address?: unknown };
        };
        return String(body.status) === '0' ? text(body.result?.formatted_address) : null;
      },
    };
  return {
    name: 'amap',
    minIntervalMs: 0,
    // AMap works on GCJ-02: the terminal's WGS-84 position is shifted first.
    async reverse(lat, lng, _lang, signal) {
      const [gLng, gLat] = gcoord.transform([lng, lat], gcoord.WGS84, gcoord.GCJ02) as [number, number];
      const q = new URLSearchParams({ key, location: `${gLng.toFixed(6)},${gLat.toFixed(6)}`, output: 'json' });
      const body = (await getJson(`${base}/v3/geocode/regeo?${q}`, signal, headers)) as {
        status?: unknown;
        regeocode?: { formatted_address?: unknown };
      };
      return String(body.status) === '1' ? text(body.regeocode?.formatted_address) : null;
    },
  };
}
