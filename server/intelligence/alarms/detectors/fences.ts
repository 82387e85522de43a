/**
 * Fence in and out: a vehicle has entered (left) a fence once it has stayed inside (outside) for
 * the fence's dwell seconds, so GNSS jitter along the border is not a crossing. The first side the
 * data settles on is where the vehicle already was, not a crossing. Inside a fence with a speed
 * limit, going faster is an OverSpeed.
 */

import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { lineString, polygon as turfPolygon, point } from '@turf/helpers';
import pointToLineDistance from '@turf/point-to-line-distance';
import type { Feature, LineString, Polygon, MultiPolygon } from 'geojson';
import type { DerivePosition } from '../../samples';
import { hasSource, type AlarmInterval } from '../types';
import { boundaryOf } from '../districts';
import * as motionRules from './motionRules';

/** Read once: under tsx an imported binding is a getter call on every use, and these run per report (trips/segment.ts). */
const { metresBetween } = motionRules;

export type FenceArea =
  | { kind: 'circle'; center: [number, number]; radiusM: number }
  | { kind: 'polygon'; shape: Feature<Polygon | MultiPolygon> }
  /** A corridor: within half the width of the path. */
  | { kind: 'route'; line: Feature<LineString>; halfWidthM: number };

export interface FenceRule {
  id: number;
  name: string;
  area: FenceArea;
  dwellSeconds: number;
  alarmOnEnter: boolean;
  alarmOnExit: boolean;
  speedLimit: number | null;
}

/** A ring closed as GeoJSON wants it. */
const closed = (ring: number[][]) =>
  ring.length && (ring[0][0] !== ring[ring.length - 1][0] || ring[0][1] !== ring[ring.length - 1][1]) ? [...ring, ring[0]] : ring;

/**
 * The fence table's geometry ({center, radius}, {points} or {districtCode, boundary}) as an area;
 * null when unusable (a district whose boundary is not known yet is not evaluated).
 */
export function areaOf(
  fenceType: string,
  geometry: { center?: number[]; radius?: number; points?: number[][]; path?: number[][]; width?: number; boundary?: unknown } | null,
): FenceArea | null {
  if (!geometry) return null;
  if (fenceType === 'district') {
    const boundary = boundaryOf(geometry.boundary);
    return boundary ? { kind: 'polygon', shape: { type: 'Feature', properties: {}, geometry: boundary } } : null;
  }
  if (fenceType === 'circle' && geometry.center?.length === 2 && typeof geometry.radius === 'number')
    return { kind: 'circle', center: [geometry.center[0], geometry.center[1]], radiusM: geometry.radius };
  if ((fenceType === 'polygon' || fenceType === 'rectangle') && geometry.points && geometry.points.length >= 3)
    return { kind: 'polygon', shape: turfPolygon([closed(geometry.points)]) };
  if (fenceType === 'route' && geometry.path && geometry.path.length >= 2 && typeof geometry.width === 'number')
    return { kind: 'route', line: lineString(geometry.path), halfWidthM: geometry.width / 2 };
  return null;
}

/** [west, south, east, north], degrees. */
type Box = readonly [number, number, number, number];

/** Metres of arc per degree on the sphere turf measures with (6,371,008.8 m). */
const METRES_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;

/**
 * A box that holds the whole area, or null where none is simple (near a pole, across the
 * antimeridian). Most reports lie far outside most fences, and this spares them the exact test.
 */
function boxAround(area: FenceArea): Box | null {
  let box: [number, number, number, number];
  if (area.kind === 'circle') {
    // A spherical cap of angular radius δ spans ±δ in latitude and ±asin(sin δ / cos φ) in longitude.
    const [lon, lat] = area.center;
    const delta = area.radiusM / METRES_PER_DEGREE;
    const s = Math.sin((delta * Math.PI) / 180) / Math.cos((lat * Math.PI) / 180);
    if (!(s < 0.99)) return null;
    const dLon = (Math.asin(s) * 180) / Math.PI;
    box = [lon - dLon, lat - delta, lon + dLon, lat + delta];
  } else {
    const coords: number[][] = [];
    const walk = (x: unknown): void => {
      if (Array.isArray(x) && typeof x[0] === 'number') coords.push(x as number[]);
      else if (Array.isArray(x)) x.forEach(walk);
    };
    walk(area.kind === 'route' ? area.line.geometry.coordinates : area.shape.geometry.coordinates);
    if (!coords.length) return null;
    box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [lon, lat] of coords) box = [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)];
    if (area.kind === 'route') {
      // The corridor's half width, with room to spare: turf measures along its own model of the earth.
      const dLat = (2 * area.halfWidthM) / METRES_PER_DEGREE;
      const cos = Math.cos((Math.min(90, Math.max(Math.abs(box[1]), Math.abs(box[3])) + dLat) * Math.PI) / 180);
      if (!(cos > 0.1)) return null;
      box = [box[0] - dLat / cos, box[1] - dLat, box[2] + dLat / cos, box[3] + dLat];
    }
  }
  // A hair of margin for rounding; beyond the poles or the antimeridian, no box.
  const m = 1e-7;
  const out: Box = [box[0] - m, box[1] - m, box[2] + m, box[3] + m];
  return out[1] < -89 || out[3] > 89 || out[0] < -180 || out[2] > 180 ? null : out;
}

const boxes = new WeakMap<FenceArea, Box | null>();

function boxOf(area: FenceArea): Box | null {
  let b = boxes.get(area);
  if (b === undefined) boxes.set(area, (b = boxAround(area)));
  return b;
}

/** Whether a point lies in the area (its border included). */
export function inside(area: FenceArea, p: { latitude: number; longitude: number }): boolean {
  const b = boxOf(area);
  if (b !== null && (p.longitude < b[0] || p.longitude > b[2] || p.latitude < b[1] || p.latitude > b[3])) return false;
  return insideExactly(area, p);
}

/** The exact test (exported for the tests that hold the box to it). */
export function insideExactly(area: FenceArea, p: { latitude: number; longitude: number }): boolean {
  if (area.kind === 'circle') return metresBetween({ longitude: area.center[0], latitude: area.center[1] }, p) <= area.radiusM;
  if (area.kind === 'route')
    return pointToLineDistance(point([p.longitude, p.latitude]), area.line, { units: 'meters' }) <= area.halfWidthM;
  return booleanPointInPolygon(point([p.longitude, p.latitude]), area.shape);
}

/** Where settledInside's walk over one fence stands: the side the data settled on, and since when it shows the other. */
export interface SettleState {
  state: boolean | null;
  candidate: DerivePosition | null;
}

/** One report of settledInside's walk: whether it counts as inside (the state is moved on). */
function settleStep(fence: Pick<FenceRule, 'area' | 'dwellSeconds'>, s: SettleState, p: DerivePosition): boolean {
  const now = inside(fence.area, p);
  if (now === s.state) s.candidate = null;
  else {
    s.candidate ??= p;
    if (p.time - s.candidate.time >= fence.dwellSeconds * 1000) {
      s.state = now;
      s.candidate = null;
    }
  }
  return s.state === true && now;
}

/**
 * Per report, whether the vehicle counts as inside the fence: it is inside and the data has
 * settled on inside (after the dwell), so border jitter neither enters nor speeds.
 */
export function settledInside(positions: readonly DerivePosition[], fence: Pick<FenceRule, 'area' | 'dwellSeconds'>): boolean[] {
  const s: SettleState = { state: null, candidate: null };
  return positions.map((p) => settleStep(fence, s, p));
}

/** Whether a fence lowers the speed limit inside it. */
export const limitsSpeed = (f: Pick<FenceRule, 'speedLimit'>) => f.speedLimit !== null && f.speedLimit > 0;

/** Whether any of the fences lowers the speed limit inside it. */
export const anyLimiting = (fences: readonly FenceRule[]) => fences.some(limitsSpeed);

/** speedLimits' walk so far: the limits of the first reports, and where each limiting fence's walk stands. */
export interface LimitsWalk {
  limits: number[];
  states: SettleState[];
}

/**
 * The speed limit in force at each of `positions[0, until)`: `base`, lowered by every fence with a
 * speed limit the vehicle is settled inside of. `from`, the walk over the same first reports
 * (a pass before), is carried on instead of walked again: point-in-fence tests are the cost.
 */
export function walkSpeedLimits(
  positions: readonly DerivePosition[],
  fences: readonly FenceRule[],
  base: number,
  from?: LimitsWalk,
  until = positions.length,
): LimitsWalk {
  const limited = fences.filter(limitsSpeed);
  const walk: LimitsWalk = from
    ? { limits: [...from.limits], states: from.states.map((s) => ({ ...s })) }
    : { limits: [], states: limited.map(() => ({ state: null, candidate: null })) };
  for (let i = walk.limits.length; i < until; i++) {
    let limit = base;
    limited.forEach((f, k) => {
      if (settleStep(f, walk.states[k], positions[i])) limit = Math.min(limit, f.speedLimit!);
    });
    walk.limits.push(limit);
  }
  return walk;
}

/** An OverSpeed open before the reports (carried: alarms/carry.ts), and the report just before them. */
export interface FenceCarry {
  alarm: AlarmInterval;
  before: DerivePosition;
}

/**
 * Crossings of one fence, and speeding inside it. `carried`: an OverSpeed open before these reports;
 * when it is this fence's run, still going on at the report before them (fast inside the fence,
 * where the walk had settled), the walk goes on from there: settled inside, speeding since the
 * alarm's begin.
 */
export function fenceIntervals(positions: readonly DerivePosition[], fence: FenceRule, carried?: FenceCarry): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  const dwellMs = fence.dwellSeconds * 1000;
  const subject = `fence:${fence.id}`;
  const limited = limitsSpeed(fence);
  const goesOn =
    limited &&
    carried !== undefined &&
    hasSource(carried.alarm, subject) &&
    carried.before.speed > fence.speedLimit! &&
    inside(fence.area, carried.before);
  let state: boolean | null = goesOn ? true : null;
  let candidate: DerivePosition | null = null;
  let speeding: AlarmInterval | null = goesOn ? { ...speedingAt(carried.before, fence), ...carriedRun(carried.alarm) } : null;
  const event = (type: 'FenceIn' | 'FenceOut', p: DerivePosition): AlarmInterval => ({
    type,
    subject,
    begin: p.time,
    end: p.time,
    firedAt: p.time + dwellMs,
    latitude: p.latitude,
    longitude: p.longitude,
    value: null,
    fenceId: fence.id,
    detail: { fenceName: fence.name },
  });
  // One walk: the crossings settle as settledInside settles (settleStep), so whether a report
  // counts as inside for the fence's speed limit is read off the same state.
  for (const p of positions) {
    const now = inside(fence.area, p);
    if (now === state) candidate = null;
    else {
      candidate ??= p;
      if (p.time - candidate.time >= dwellMs) {
        if (state !== null) {
          if (now && fence.alarmOnEnter) out.push(event('FenceIn', candidate));
          if (!now && fence.alarmOnExit) out.push(event('FenceOut', candidate));
        }
        state = now;
        candidate = null;
      }
    }
    const fast = limited && state === true && now && p.speed > fence.speedLimit!;
    if (fast && !speeding) speeding = speedingAt(p, fence);
    else if (fast && speeding) speeding.value = Math.max(speeding.value ?? 0, p.speed);
    else if (!fast && speeding) {
      speeding.end = p.time;
      out.push(speeding);
      speeding = null;
    }
  }
  if (speeding) out.push(speeding);
  return out;
}

/** Speeding inside a fence with a speed limit, from report `p` on. */
function speedingAt(p: DerivePosition, fence: FenceRule): AlarmInterval {
  return {
    type: 'OverSpeed',
    subject: '',
    begin: p.time,
    end: null,
    firedAt: p.time,
    latitude: p.latitude,
    longitude: p.longitude,
    value: p.speed,
    fenceId: fence.id,
    detail: { sources: [`fence:${fence.id}`], limitKmh: fence.speedLimit },
  };
}

/** Where a carried run began, when it fired and its worst value so far, as stored. */
const carriedRun = (a: AlarmInterval) => ({
  begin: a.begin,
  firedAt: a.firedAt,
  latitude: a.latitude,
  longitude: a.longitude,
  value: a.value,
});
