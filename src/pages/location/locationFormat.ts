/** What the public location page shows of a shared vehicle's position. Pure. */
import { convertCoord, type CoordSystem, type LngLat } from '../../utils/coords';

export type { MapConfig, SharedLocation, SharedPosition } from '../../services/location';
import type { SharedPosition } from '../../services/location';

/** The page refreshes this often. */
export const REFRESH_MS = 30_000;

export const COMPASS = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'] as const;

/** The nearest of eight compass points of a heading in degrees. */
export function compassPoint(degrees: number): (typeof COMPASS)[number] {
  const d = ((degrees % 360) + 360) % 360;
  return COMPASS[Math.round(d / 45) % 8];
}

export const coordText = (p: LngLat): string => `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;

/** The position in both systems Chinese maps and GPS use, and where a marker goes on tiles of `tiles`. */
export function positionCoords(p: SharedPosition, tiles: CoordSystem = 'WGS84'): { wgs84: LngLat; gcj02: LngLat; marker: LngLat } {
  const wgs84 = { lng: p.longitude, lat: p.latitude };
  const gcj02 = convertCoord(wgs84, 'WGS84', 'GCJ02');
  return { wgs84, gcj02, marker: tiles === 'GCJ02' ? gcj02 : wgs84 };
}
