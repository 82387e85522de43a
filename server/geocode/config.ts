import { PROVIDER_NAMES, type ProviderConfig, type ProviderName } from './providers';

/** Reverse geocoding as the operator configures it (docs/operations.md). */
export interface GeocodeConfig {
  /** Null: addresses are the province, city and district from the shipped boundaries only. */
  provider: ProviderConfig | null;
  timeoutMs: number;
  waitMs: number;
}

export const OFFLINE_GEOCODING: GeocodeConfig = { provider: null, timeoutMs: 3000, waitMs: 1500 };

const positive = (name: string, v: string | undefined, fallback: number) => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number of milliseconds, got "${v}"`);
  return n;
};

/**
 * GEOCODE_PROVIDER (off by default: nominatim, tianditu or amap), GEOCODE_URL (the service's
 * address; Nominatim's public server by default), GEOCODE_KEY (Tianditu's or AMap's key),
 * GEOCODE_TIMEOUT_MS, GEOCODE_WAIT_MS. A wrong value stops the start, saying which.
 */
export function geocodeConfig(env: NodeJS.ProcessEnv): GeocodeConfig {
  const name = (env.GEOCODE_PROVIDER ?? '').trim().toLowerCase();
  const timeoutMs = positive('GEOCODE_TIMEOUT_MS', env.GEOCODE_TIMEOUT_MS, OFFLINE_GEOCODING.timeoutMs);
  const waitMs = positive('GEOCODE_WAIT_MS', env.GEOCODE_WAIT_MS, OFFLINE_GEOCODING.waitMs);
  if (!name || name === 'off') return { provider: null, timeoutMs, waitMs };
  if (!PROVIDER_NAMES.includes(name as ProviderName))
    throw new Error(`GEOCODE_PROVIDER must be one of off, ${PROVIDER_NAMES.join(', ')}; got "${env.GEOCODE_PROVIDER}"`);
  const provider = name as ProviderName;
  if (provider !== 'nominatim' && !env.GEOCODE_KEY) throw new Error(`GEOCODE_KEY is needed for GEOCODE_PROVIDER=${provider}`);
  return {
    provider: {
      provider,
      url: env.GEOCODE_URL || undefined,
      key: env.GEOCODE_KEY || undefined,
      userAgent: 'fleet-star (reverse geocoding of vehicle positions)',
    },
    timeoutMs,
    waitMs,
  };
}
