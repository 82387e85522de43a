/**
 * What a fence's geometry must be for its type, beyond the JSON schema's shapes: the server refuses
 * a fence that breaks it (400 on `geometry`) and the map editor checks the same before saving.
 * Coordinates are [longitude, latitude] in WGS-84. Pure.
 */

export type FenceType = 'circle' | 'polygon' | 'rectangle' | 'route' | 'district';

export interface FenceGeometry {
  center?: number[];
  radius?: number;
  points?: number[][];
  path?: number[][];
  width?: number;
  districtCode?: string;
  boundary?: unknown;
}

/** A message key of the catalogue (`validation.fence.*`) with its parameters. */
export interface GeometryProblem {
  key: string;
  params: Record<string, number | string>;
}

const problem = (key: string, params: Record<string, number | string> = {}): GeometryProblem => ({
  key: `validation.fence.${key}`,
  params,
});

const isPair = (p: unknown): p is [number, number] =>
  Array.isArray(p) && p.length === 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));
const onEarth = ([lng, lat]: number[]) => lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
const same = (a: number[], b: number[]) => a[0] === b[0] && a[1] === b[1];

/** The ring without a closing point repeating the first. */
export function openRing(points: readonly number[][]): number[][] {
  return points.length > 1 && same(points[0], points[points.length - 1]) ? points.slice(0, -1) : [...points];
}

const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Segments ab and cd cross at a point inside both (touching ends of neighbours does not count). */
function segmentsCross(a: number[], b: number[], c: number[], d: number[]): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Two edges of the ring that are not neighbours cross each other. */
export function selfIntersects(ring: readonly number[][]): boolean {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // neighbours through the closing edge
      if (segmentsCross(ring[i], ring[(i + 1) % n], ring[j], ring[(j + 1) % n])) return true;
    }
  }
  return false;
}

/** Twice the ring's signed area (shoelace), in squared degrees: 0 for a ring with no inside. */
const doubledArea = (ring: readonly number[][]) => ring.reduce((s, p, i) => s + cross([0, 0], p, ring[(i + 1) % ring.length]), 0);

function ringProblem(points: readonly number[][] | undefined): GeometryProblem | null {
  if (!points || !points.every(isPair)) return problem('pointsRequired');
  const ring = openRing(points);
  if (ring.length < 3) return problem('tooFewPoints', { min: 3 });
  if (!ring.every(onEarth)) return problem('outOfRange');
  // Crossing first: a bow tie's two halves cancel out, so its signed area says nothing.
  if (selfIntersects(ring)) return problem('selfIntersecting');
  if (Math.abs(doubledArea(ring)) < 1e-12) return problem('noArea');
  return null;
}

/** Why the geometry does not fit the type, or null when it does. */
export function fenceGeometryProblem(type: FenceType, g: FenceGeometry | null | undefined): GeometryProblem | null {
  // "Draw it on the map" says nothing to someone picking a district.
  if (!g || typeof g !== 'object') return problem(type === 'district' ? 'districtRequired' : 'missing');
  switch (type) {
    case 'circle':
      if (!isPair(g.center) || typeof g.radius !== 'number') return problem('circleRequired');
      if (!onEarth(g.center)) return problem('outOfRange');
      return g.radius > 0 ? null : problem('noArea');
    case 'polygon':
      return ringProblem(g.points);
    case 'rectangle': {
      const bad = ringProblem(g.points);
      if (bad) return bad;
      const ring = openRing(g.points!);
      // Four corners on two longitudes and two latitudes (as the map draws a rectangle).
      const lngs = new Set(ring.map((p) => p[0]));
      const lats = new Set(ring.map((p) => p[1]));
      return ring.length === 4 && lngs.size === 2 && lats.size === 2 ? null : problem('notRectangle');
    }
    case 'route': {
      if (!g.path || !g.path.every(isPair) || typeof g.width !== 'number') return problem('routeRequired');
      if (g.path.length < 2) return problem('tooFewPoints', { min: 2 });
      if (!g.path.every(onEarth)) return problem('outOfRange');
      for (let i = 1; i < g.path.length; i++) if (same(g.path[i - 1], g.path[i])) return problem('repeatedPoint', { index: i + 1 });
      return g.width > 0 ? null : problem('noArea');
    }
    case 'district':
      return typeof g.districtCode === 'string' && g.districtCode ? null : problem('districtRequired');
    default:
      return problem('missing');
  }
}
