/**
 * A fence's stored geometry ([lng, lat] in WGS-84) and Leaflet layers on the configured tiles, both
 * ways: the editor draws with them and reads what was drawn back; the monitor shows open fences.
 */
import L from 'leaflet';
import type { FenceGeometry, FenceType } from '../../../schemas/kit/fenceGeometry';
import { fromMapLatLng, toMapLatLng, type TileCoords } from './projection';

/** Six decimals: about 0.1 m, finer than any GNSS fix. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

const toLngLat = (p: L.LatLng, coords: TileCoords): [number, number] => {
  const w = fromMapLatLng(p.lat, p.lng, coords);
  return [round(w.longitude), round(w.latitude)];
};
const toMap = ([lng, lat]: number[], coords: TileCoords) => toMapLatLng(lat, lng, coords);

/** The layer that draws a fence, or null when the geometry has no shape to draw (a district without boundary). */
export function fenceLayer(type: FenceType, g: FenceGeometry, coords: TileCoords, style: L.PathOptions = {}): L.Path | null {
  if (type === 'circle' && g.center && typeof g.radius === 'number')
    return L.circle(toMap(g.center, coords), { radius: g.radius, ...style });
  if ((type === 'polygon' || type === 'rectangle') && g.points?.length)
    return L.polygon(
      g.points.map((p) => toMap(p, coords)),
      style,
    );
  if (type === 'route' && g.path?.length)
    return L.polyline(
      g.path.map((p) => toMap(p, coords)),
      style,
    );
  return null;
}

/** What a drawn or edited layer stores for a fence of `type`; a route keeps the width it was given. */
export function geometryOf(type: FenceType, layer: L.Layer, coords: TileCoords, width?: number): FenceGeometry | null {
  if (type === 'circle' && layer instanceof L.Circle)
    return { center: toLngLat(layer.getLatLng(), coords), radius: Math.round(layer.getRadius() * 10) / 10 };
  if ((type === 'polygon' || type === 'rectangle') && layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[][];
    return { points: (rings[0] ?? []).map((p) => toLngLat(p, coords)) };
  }
  if (type === 'route' && layer instanceof L.Polyline && !(layer instanceof L.Polygon)) {
    return { path: (layer.getLatLngs() as L.LatLng[]).map((p) => toLngLat(p, coords)), ...(width === undefined ? {} : { width }) };
  }
  return null;
}

/** Geoman's name of the shape that draws a fence type. */
export const DRAW_SHAPE: Partial<Record<FenceType, 'Circle' | 'Polygon' | 'Rectangle' | 'Line'>> = {
  circle: 'Circle',
  polygon: 'Polygon',
  rectangle: 'Rectangle',
  route: 'Line',
};
