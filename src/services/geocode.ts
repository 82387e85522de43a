import { call } from './http/call';

export interface PositionAddress {
  latitude: number;
  longitude: number;
  address: string | null;
  source: 'provider' | 'district' | null;
}

/** The most positions one call asks (server/geocode/routes.ts MAX_POINTS). */
export const GEOCODE_BATCH = 200;

/** Addresses of positions (server/geocode): the provider's where one is configured, else the district; quiet on failure (the place shows its coordinates). */
export const reverseGeocode = (points: ReadonlyArray<{ latitude: number; longitude: number }>) =>
  call<{ provider: string | null; data: PositionAddress[] }>('/vehicle/geocode/reverse', {
    method: 'POST',
    data: { points },
    skipErrorHandler: true,
  });
