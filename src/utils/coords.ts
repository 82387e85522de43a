/**
 * Coordinate-system conversion between WGS-84 (GPS/JT808 terminals), GCJ-02 (AMap/Tencent)
 * and BD-09 (Baidu), delegating the maths to gcoord.
 *
 * gcoord notes (v1.0.7): WGS84↔GCJ02 leave points outside a rough China bounding box
 * (lng 72.004–137.8347, lat 0.8293–55.8271) unchanged; the box also covers neighbours such as
 * Korea and northern Vietnam, which do get shifted. GCJ02↔BD09 is a pure formula and is
 * applied everywhere, so WGS84→BD09 still moves a point that lies outside China.
 */
import gcoord, { type GeoJSON, type Position } from 'gcoord';

export type CoordSystem = 'WGS84' | 'GCJ02' | 'BD09';

export interface LngLat {
  lng: number;
  lat: number;
}

const CRS = { WGS84: gcoord.WGS84, GCJ02: gcoord.GCJ02, BD09: gcoord.BD09 } as const;

const isFiniteLngLat = (lng: number, lat: number): boolean => Number.isFinite(lng) && Number.isFinite(lat);

/**
 * Converts one point and returns a new `{ lng, lat }`.
 * Non-finite coordinates (a bad GPS fix) are returned as-is rather than throwing mid-render;
 * callers that care should filter them first.
 */
export function convertCoord(point: LngLat, from: CoordSystem, to: CoordSystem): LngLat {
  const { lng, lat } = point;
  if (from === to || !isFiniteLngLat(lng, lat)) return { lng, lat };
  const [x, y] = gcoord.transform<Position>([lng, lat], CRS[from], CRS[to]);
  return { lng: x, lat: y };
}

/**
 * Converts `count` finite positions with a single gcoord call: wrapping them in one MultiPoint
 * lets gcoord rewrite the tuples in place, skipping its per-call validation and copy.
 */
function transformPositions(positions: Position[], from: CoordSystem, to: CoordSystem): void {
  if (positions.length === 0) return;
  const multiPoint: GeoJSON = { type: 'MultiPoint', coordinates: positions };
  gcoord.transform(multiPoint, CRS[from], CRS[to]);
}

/**
 * Converts a track, returning new point objects that keep every other field (time, speed…).
 * Input is not mutated. Non-finite points are copied unconverted.
 */
export function convertTrack<T extends LngLat>(points: readonly T[], from: CoordSystem, to: CoordSystem): T[] {
  if (from === to) return points.map((p) => ({ ...p }));
  const positions: Position[] = [];
  const indexes: number[] = [];
  points.forEach((p, i) => {
    if (isFiniteLngLat(p.lng, p.lat)) {
      positions.push([p.lng, p.lat]);
      indexes.push(i);
    }
  });
  transformPositions(positions, from, to);
  const out = points.map((p) => ({ ...p }));
  indexes.forEach((pointIndex, k) => {
    const [lng, lat] = positions[k];
    out[pointIndex].lng = lng;
    out[pointIndex].lat = lat;
  });
  return out;
}

/**
 * Allocation-light variant for long tracks: converts an interleaved
 * `[lng0, lat0, lng1, lat1, …]` array IN PLACE and returns it.
 * Pairs with a non-finite member are left untouched; an odd trailing value is ignored.
 */
export function convertCoordsInPlace<A extends Float64Array | number[]>(coords: A, from: CoordSystem, to: CoordSystem): A {
  if (from === to) return coords;
  const positions: Position[] = [];
  const offsets: number[] = [];
  for (let i = 0; i + 1 < coords.length; i += 2) {
    if (isFiniteLngLat(coords[i], coords[i + 1])) {
      positions.push([coords[i], coords[i + 1]]);
      offsets.push(i);
    }
  }
  transformPositions(positions, from, to);
  for (let k = 0; k < offsets.length; k += 1) {
    coords[offsets[k]] = positions[k][0];
    coords[offsets[k] + 1] = positions[k][1];
  }
  return coords;
}
