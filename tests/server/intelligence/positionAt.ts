import type { DerivePosition } from '../../../server/intelligence/deriver';

/** The derivers' test day starts here (UTC). */
export const T0 = Date.parse('2026-11-20T00:00:00Z');

/** A parked report `minute` minutes into the test day, in Shanghai, with `o` changed. */
export const positionAt = (minute: number, o: Partial<DerivePosition> = {}): DerivePosition => ({
  time: T0 + minute * 60_000,
  latitude: 31.2,
  longitude: 121.4,
  speed: 0,
  direction: 0,
  acc: false,
  alarm: 0,
  status: 0,
  mileageKm: null,
  fuelL: null,
  blind: false,
  extras: null,
  ...o,
});
