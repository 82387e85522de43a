/** Track playback: the clock, where the marker is at a time, and the line coloured by speed. Pure. */
import type { ReplayPoint } from '../../services/vehicleDetail';

export const SPEEDS = [1, 2, 4, 8, 16, 32, 64] as const;
export type PlaySpeed = (typeof SPEEDS)[number];

/** Points asked for a whole range; zoomed in, the window's points come in full. */
export const MAX_POINTS = 5000;
/** From this zoom the line of the visible window is loaded in full. */
export const DETAIL_ZOOM = 14;

/** Speed bands of the line (km/h, upper bounds) and their colours; above the last, red. */
export const SPEED_BANDS: readonly { below: number; colour: string }[] = [
  { below: 5, colour: '#8c8c8c' },
  { below: 40, colour: '#52c41a' },
  { below: 80, colour: '#1677ff' },
  { below: 100, colour: '#fa8c16' },
];
export const FAST_COLOUR = '#f5222d';

export const speedColour = (kmh: number): string => SPEED_BANDS.find((b) => kmh < b.below)?.colour ?? FAST_COLOUR;

export const timeOf = (p: ReplayPoint): number => Date.parse(p[0]);

/** The line split where the speed band changes; neighbouring runs share their joining point. */
export function colouredRuns(points: readonly ReplayPoint[]): { colour: string; latlngs: [number, number][] }[] {
  const runs: { colour: string; latlngs: [number, number][] }[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    const colour = speedColour(p[3]);
    const last = runs[runs.length - 1];
    if (last && last.colour === colour) last.latlngs.push([p[1], p[2]]);
    else {
      const prev = points[i - 1];
      runs.push({
        colour,
        latlngs: prev
          ? [
              [prev[1], prev[2]],
              [p[1], p[2]],
            ]
          : [[p[1], p[2]]],
      });
    }
  }
  return runs;
}

/** Index of the last point at or before `t` (0 before the first), by binary search. */
export function indexAt(points: readonly ReplayPoint[], t: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0 || t <= timeOf(points[0])) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timeOf(points[mid]) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where playback starts: the first report that moves (a day's track begins parked at midnight), else
 * the first. A vehicle that has only just set off moves first at the range's last report, which would
 * leave nothing to play: it starts at the report before, as it sets off.
 */
export function firstMovement(points: readonly ReplayPoint[]): number | null {
  if (!points.length) return null;
  const i = points.findIndex((p) => p[3] > 0);
  if (i < 0) return timeOf(points[0]);
  return timeOf(points[i === points.length - 1 ? Math.max(0, i - 1) : i]);
}

/** The points of [begin, end] as [latitude, longitude] pairs, for zooming to a trip or a stop. */
export function pointsBetween(points: readonly ReplayPoint[], begin: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = indexAt(points, begin); i < points.length && timeOf(points[i]) <= end; i++)
    if (timeOf(points[i]) >= begin) out.push([points[i][1], points[i][2]]);
  return out;
}

/** Where the vehicle was at `t`: between two reports, on the straight line joining them. */
export function positionAt(
  points: readonly ReplayPoint[],
  t: number,
): { latitude: number; longitude: number; speed: number; direction: number; index: number } | null {
  if (!points.length) return null;
  const i = indexAt(points, t);
  const a = points[i];
  const b = points[i + 1];
  if (!b || t <= timeOf(a)) return { latitude: a[1], longitude: a[2], speed: a[3], direction: a[4], index: i };
  const f = Math.min(1, (t - timeOf(a)) / Math.max(1, timeOf(b) - timeOf(a)));
  return { latitude: a[1] + (b[1] - a[1]) * f, longitude: a[2] + (b[2] - a[2]) * f, speed: a[3], direction: a[4], index: i };
}

export interface Clock {
  /** Track time shown, ms. */
  at: number;
  playing: boolean;
  speed: PlaySpeed;
}

/**
 * The clock after `elapsedMs` of wall time. ×1 plays 60 s of track per second, so an hour takes a
 * minute; ×64 a day in about 22 s. Stops at the end.
 */
export const TRACK_SECONDS_PER_SECOND = 60;

export function tick(c: Clock, elapsedMs: number, end: number): Clock {
  if (!c.playing) return c;
  const at = Math.min(end, c.at + elapsedMs * TRACK_SECONDS_PER_SECOND * c.speed);
  return { ...c, at, playing: at < end };
}

/** A seek lands inside the range. */
export const seek = (c: Clock, t: number, begin: number, end: number): Clock => ({ ...c, at: Math.max(begin, Math.min(end, t)) });

/** The time window of the points inside the view, to load in full; null when none is inside. */
export function windowInView(
  points: readonly ReplayPoint[],
  inView: (lat: number, lng: number) => boolean,
): { begin: string; end: string } | null {
  let first: ReplayPoint | null = null;
  let last: ReplayPoint | null = null;
  for (const p of points) {
    if (!inView(p[1], p[2])) continue;
    first ??= p;
    last = p;
  }
  return first && last && first !== last ? { begin: first[0], end: last[0] } : null;
}

/** Quick ranges of the track (end now): today, yesterday, the last 24 hours, 3 and 7 days. */
export const TRACK_RANGES = ['today', 'yesterday', 'last24h', 'last3d', 'last7d'] as const;
export type TrackRange = (typeof TRACK_RANGES)[number];

export function trackRange(kind: TrackRange, now: Date = new Date()): [Date, Date] {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const hours = (h: number) => new Date(now.getTime() - h * 3600_000);
  switch (kind) {
    case 'today':
      return [midnight, now];
    case 'yesterday':
      return [new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate() - 1), midnight];
    case 'last24h':
      return [hours(24), now];
    case 'last3d':
      return [hours(72), now];
    case 'last7d':
      return [hours(168), now];
  }
}
