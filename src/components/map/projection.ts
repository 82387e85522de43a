/** Where a WGS-84 position (what terminals report) lands on the configured tiles. Pure. */
import { convertCoord } from '../../utils/coords';

export type TileCoords = 'WGS84' | 'GCJ02';

/** [lat, lng] on tiles of `coords`: GCJ-02 tiles (AMap and other Chinese providers) need the shift. */
export function toMapLatLng(latitude: number, longitude: number, coords: TileCoords): [number, number] {
  if (coords === 'WGS84') return [latitude, longitude];
  const p = convertCoord({ lng: longitude, lat: latitude }, 'WGS84', coords);
  return [p.lat, p.lng];
}

/** The inverse: a point picked on the map back to WGS-84, as the server stores it. */
export function fromMapLatLng(lat: number, lng: number, coords: TileCoords): { latitude: number; longitude: number } {
  if (coords === 'WGS84') return { latitude: lat, longitude: lng };
  const p = convertCoord({ lng, lat }, coords, 'WGS84');
  return { latitude: p.lat, longitude: p.lng };
}

/** Where a map starts when there is nothing to fit yet (China). */
export const DEFAULT_VIEW = { center: [34.5, 108.9] as [number, number], zoom: 4 };
