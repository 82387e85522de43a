/**
 * The replay's pre-decimated levels (`track_minute`): per vehicle, level (1 or 10 minutes) and UTC
 * bucket of that length with reports, the bucket's first, fastest, slowest and last report, the GNSS
 * distance between its own reports, its odometer ends and report count. A row depends only on the
 * reports inside its bucket, so rebuilding the buckets a window touches is enough whatever order
 * reports arrive in: a pass rebuilds the buckets around the reports stored since the last (the
 * window's dirty range), not the whole window the trips needed, and reads back the reports of those
 * buckets that lie outside the window, so every bucket rebuilt is rebuilt whole. A live pass goes
 * on from the tally the last pass left of the bucket it starts in (minuteCarry.ts).
 * `track_minute_cover` says from when on the levels hold every report (the replay reads raw before).
 */

import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB, TrackMinuteTable } from '../../platform/db/tables';
import { boundText, firstAfter, timeSlice, type Deriver, type DeriveWindow } from '../deriver';
import { BucketCarries, type BucketTally, type MinutePoint } from './minuteCarry';
import { distanceKm as geoDistanceKm } from '../geo';
import { isJump } from '../plausible';
import { replaceRows, rowSet, type Column } from '../../platform/db/replaceRows';
import type { DerivePass } from '../settingsCache';

/** Read once: under tsx an imported binding is a getter call on every use, here per report (trips/segment.ts). */
const distanceKm = geoDistanceKm;

export const MINUTE_MS = 60_000;
/** The levels kept, in minutes per bucket: a month is ~43,000 one-minute rows or ~4,300 ten-minute ones. */
export const LEVEL_MINUTES = [1, 10] as const;

/** Below this speed (km/h) at both ends a step shorter than STANDING_KM is standing jitter, not distance (the replay summary's rule). */
export const STANDING_KMH = 5;
export const STANDING_KM = 0.03;

export const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;
export const ceilTo = (ms: number, step: number) => Math.ceil(ms / step) * step;

/** A fix as a step of the replay summary reads it. */
export interface StepPoint {
  time: number;
  latitude: number;
  longitude: number;
  speed: number;
}

/**
 * A step's distance as the replay summary counts it: none for standing jitter, none for a GNSS jump
 * (plausible.ts: the rule the trips use; here between consecutive fixes, so a bucket's sum depends
 * on its own reports only). Speeds are compared as the reader holds them (float4, as the column
 * stores them), so the level and the raw read agree to the last bit.
 */
export function stepKm(a: StepPoint, b: StepPoint): number {
  const d = distanceKm(a, b);
  if (isJump({ time: a.time, speed: Math.fround(a.speed) }, { time: b.time, speed: Math.fround(b.speed) }, d)) return 0;
  return Math.fround(a.speed) < STANDING_KMH && Math.fround(b.speed) < STANDING_KMH && d < STANDING_KM ? 0 : d;
}

const pointText = (p: MinutePoint) => `${p.time},${p.latitude},${p.longitude},${p.speed},${p.direction},${p.acc ? 1 : 0}`;

function openBucket(minute: number, p: MinutePoint): BucketTally {
  const t: BucketTally = {
    minute,
    n: 1,
    gnss: 0,
    first: p,
    top: p,
    topAt: 0,
    slow: p,
    slowAt: 0,
    last: p,
    odoFirst: null,
    odoLast: null,
    odoSane: true,
  };
  takeOdometer(t, p);
  return t;
}

function takeOdometer(t: BucketTally, p: MinutePoint): void {
  if (p.mileageKm === null) return;
  if (t.odoLast !== null && p.mileageKm < t.odoLast) t.odoSane = false;
  t.odoFirst ??= p.mileageKm;
  t.odoLast = p.mileageKm;
}

function addToBucket(t: BucketTally, p: MinutePoint): void {
  t.gnss += stepKm(t.last, p);
  if (Math.fround(p.speed) > Math.fround(t.top.speed)) {
    t.top = p;
    t.topAt = t.n;
  }
  if (Math.fround(p.speed) < Math.fround(t.slow.speed)) {
    t.slow = p;
    t.slowAt = t.n;
  }
  takeOdometer(t, p);
  t.last = p;
  t.n++;
}

function bucketRow(vehicleId: number, spanMinutes: number, t: BucketTally): Insertable<TrackMinuteTable> {
  // The fastest and the slowest: where it went top speed, and where it stood inside a moving bucket.
  const kept = new Map<number, MinutePoint>([
    [0, t.first],
    [t.topAt, t.top],
    [t.slowAt, t.slow],
    [t.n - 1, t.last],
  ]);
  const points = [...kept].sort((a, b) => a[0] - b[0]).map(([, p]) => pointText(p));
  return {
    vehicle_id: vehicleId,
    span_minutes: spanMinutes,
    minute: new Date(t.minute),
    n: t.n,
    gnss_km: t.gnss,
    odo_first: t.odoFirst,
    odo_last: t.odoLast,
    odo_sane: t.odoSane,
    max_speed: t.top.speed,
    points: `${points.length},${points.join(',')}`,
  };
}

/** What a level's walk gives: its rows, and its last bucket's tally before `settleBefore` (what the next pass may go on from). */
export interface LevelWalk {
  rows: Array<Insertable<TrackMinuteTable>>;
  settled: BucketTally | null;
}

/**
 * The rows of one level of reports in device-time order (pure); every bucket they touch must be
 * whole in `points`, except the first when `from` tallies its reports before them.
 */
export function minuteLevel(
  vehicleId: number,
  points: readonly MinutePoint[],
  spanMinutes = 1,
  from: BucketTally | null = null,
  settleBefore = Infinity,
): LevelWalk {
  const rows: Array<Insertable<TrackMinuteTable>> = [];
  const step = spanMinutes * MINUTE_MS;
  let t: BucketTally | null = from && { ...from };
  let settled: BucketTally | null = null;
  let crossed = false;
  for (const p of points) {
    if (!crossed && p.time >= settleBefore) {
      crossed = true;
      settled = t && { ...t };
    }
    const minute = floorTo(p.time, step);
    if (t !== null && t.minute === minute) addToBucket(t, p);
    else {
      if (t !== null) rows.push(bucketRow(vehicleId, spanMinutes, t));
      t = openBucket(minute, p);
    }
  }
  if (t !== null) rows.push(bucketRow(vehicleId, spanMinutes, t));
  // Every report walked lies before `settleBefore`: the last bucket's tally as it ends is settled.
  if (!crossed && Number.isFinite(settleBefore)) settled = t && { ...t };
  return { rows, settled };
}

/** The rows of one level of reports in device-time order (pure); every bucket they touch must be whole in `points`. */
export const minuteRows = (vehicleId: number, points: readonly MinutePoint[], spanMinutes = 1) =>
  minuteLevel(vehicleId, points, spanMinutes).rows;

/**
 * What a window's level of `step` ms rebuilds: the whole buckets around its dirty range, within the
 * window widened to whole buckets. The rest of the window did not change.
 */
function rebuildRange(w: DeriveWindow, step: number): { vehicleId: number; from: number; to: number } {
  const from = Math.max(w.from, w.dirty?.from ?? -Infinity);
  const to = Math.min(w.to, w.dirty?.to ?? Infinity);
  return {
    vehicleId: w.vehicle.vehicleId,
    from: Number.isFinite(from) ? floorTo(from, step) : from,
    to: Number.isFinite(to) ? ceilTo(to, step) : to,
  };
}

/** The reports of each rebuilt range: the window's inside it, and those outside the window read back (one statement for all). */
async function pointsOf(
  trx: Kysely<DB>,
  windows: readonly DeriveWindow[],
  bounds: ReadonlyArray<{ from: number; to: number }>,
): Promise<MinutePoint[][]> {
  const heads = windows.map((): MinutePoint[] => []);
  const tails = windows.map((): MinutePoint[] => []);
  const parts: Array<{ ord: number; side: 'head' | 'tail'; vehicleId: number; lo: number; hi: number }> = [];
  windows.forEach((w, i) => {
    const b = bounds[i];
    if (b.from < w.from) parts.push({ ord: i, side: 'head', vehicleId: w.vehicle.vehicleId, lo: b.from, hi: w.from });
    if (b.to > w.to) parts.push({ ord: i, side: 'tail', vehicleId: w.vehicle.vehicleId, lo: w.to, hi: b.to });
  });
  if (parts.length) {
    const r = await sql<{
      part: number;
      ms: number;
      latitude: number;
      longitude: number;
      speed: number;
      direction: number;
      acc: boolean;
      mileage_km: number | null;
    }>`
      SELECT s.part, p.ms, p.latitude, p.longitude, p.speed, p.direction, p.acc, p.mileage_km
      FROM unnest(${parts.map((p) => p.vehicleId)}::int[], ${parts.map((p) => boundText(p.lo))}::timestamptz[], ${parts.map((p) => boundText(p.hi))}::timestamptz[])
        WITH ORDINALITY AS s(vehicle_id, lo, hi, part)
      -- One index scan per part: a LATERAL with its own ORDER BY is not flattened into a hash join
      -- over the whole month partition (windowLoad.ts, positionsOfRanges).
      CROSS JOIN LATERAL (
        SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, speed, direction, acc, mileage_km, terminal_id
        FROM position WHERE vehicle_id = s.vehicle_id AND device_time >= s.lo AND device_time < s.hi ORDER BY device_time, terminal_id
      ) p
      ORDER BY s.part, p.ms, p.terminal_id`.execute(trx);
    for (const row of r.rows) {
      const part = parts[Number(row.part) - 1];
      (part.side === 'head' ? heads : tails)[part.ord].push({
        time: Math.round(Number(row.ms)),
        latitude: row.latitude,
        longitude: row.longitude,
        speed: Number(row.speed),
        direction: row.direction,
        acc: row.acc,
        mileageKm: row.mileage_km,
      });
    }
  }
  return windows.map((w, i) => {
    const { from, to } = bounds[i];
    const inside = timeSlice(w.positions, from, to);
    return [...heads[i], ...inside, ...tails[i]];
  });
}

/** The level's columns, sent as typed arrays: a pass writes a row per minute it rebuilds. */
const LEVEL_COLUMNS: ReadonlyArray<Column<Insertable<TrackMinuteTable>>> = [
  ['vehicle_id', 'int'],
  ['span_minutes', 'smallint'],
  ['minute', 'timestamptz'],
  ['n', 'int'],
  ['gnss_km', 'float8'],
  ['odo_first', 'float8'],
  ['odo_last', 'float8'],
  ['odo_sane', 'bool'],
  ['max_speed', 'real'],
  ['points', 'text'],
];

/**
 * The rows of one level of a window's rebuilt range (its buckets from `from` on, whose reports are
 * `inside`), going on from the tally the last pass left of the first bucket when it may, and what
 * the next pass may go on from.
 */
export function levelRows(
  w: DeriveWindow,
  spanMinutes: number,
  from: number,
  inside: readonly MinutePoint[],
  carries: BucketCarries,
): Array<Insertable<TrackMinuteTable>> {
  const carry = carries.usable(w, spanMinutes, from);
  const walk = minuteLevel(
    w.vehicle.vehicleId,
    carry ? inside.slice(firstAfter(inside, carry.last.time)) : inside,
    spanMinutes,
    carry,
    w.marked ?? Infinity,
  );
  carries.keep(w, spanMinutes, walk.settled);
  return walk.rows;
}

/** The replay levels' deriver, with its own carries (minuteCarry.ts): one per pipeline. */
export function trackMinuteDeriver(): Deriver {
  const carries = new BucketCarries();
  return {
    name: 'trackMinute',
    rebuild: (trx, w, pass) => rebuildLevels(trx, [w], carries, pass),
    rebuildMany: (trx, windows, pass) => rebuildLevels(trx, windows, carries, pass),
  };
}

async function rebuildLevels(trx: Kysely<DB>, windows: readonly DeriveWindow[], carries: BucketCarries, pass?: DerivePass): Promise<void> {
  if (!windows.length) return;
  // Each level rebuilds its own buckets (a pass rewrites at most one old minute of the one-minute
  // level); the coarsest level's range holds the others, so its reports serve them all.
  const levels = LEVEL_MINUTES.map((m) => ({ m, bounds: windows.map((w) => rebuildRange(w, m * MINUTE_MS)) }));
  const outer = levels[levels.length - 1].bounds;
  const points = await pointsOf(trx, windows, outer);
  const doomed = levels.flatMap(({ m, bounds }) => bounds.map((b) => ({ ...b, m })));
  const rows = levels.flatMap(({ m, bounds }) =>
    windows.flatMap((w, i) => {
      const { from, to } = bounds[i];
      const inside = from > outer[i].from || to < outer[i].to ? timeSlice(points[i], from, to) : points[i];
      return levelRows(w, m, from, inside, carries);
    }),
  );
  // The levels hold everything from a rebuilt range's first bucket on when the range runs to the
  // newest report (or past what was derived so far: reports beyond that are pending, so derived
  // next), or when it reaches the part already held.
  const ranges = sql`unnest(${outer.map((b) => b.vehicleId)}::int[], ${outer.map((b) => boundText(b.from))}::timestamptz[], ${outer.map((b) => boundText(b.to))}::timestamptz[]) AS r(vehicle_id, lo, hi)`;
  const cover = sql`
    INSERT INTO track_minute_cover (vehicle_id, covered_from)
    SELECT r.vehicle_id, r.lo FROM ${ranges}
    LEFT JOIN derive_state d ON d.vehicle_id = r.vehicle_id
    LEFT JOIN track_minute_cover c ON c.vehicle_id = r.vehicle_id
    WHERE (r.hi = 'infinity' OR d.watermark IS NULL OR r.hi > d.watermark OR r.hi >= c.covered_from) AND (c.covered_from IS NULL OR r.lo < c.covered_from)
    ON CONFLICT (vehicle_id) DO UPDATE SET covered_from = LEAST(track_minute_cover.covered_from, excluded.covered_from)`;
  // Each level's buckets of the rebuilt ranges, and the cover, in one statement.
  const levelRanges = sql`unnest(${doomed.map((d) => d.vehicleId)}::int[], ${doomed.map((d) => d.m)}::smallint[], ${doomed.map((d) => boundText(d.from))}::timestamptz[], ${doomed.map((d) => boundText(d.to))}::timestamptz[]) AS w(vehicle_id, span, lo, hi)`;
  await replaceRows(
    trx,
    levelRanges,
    [
      rowSet({
        table: 'track_minute',
        columns: LEVEL_COLUMNS,
        key: ['vehicle_id', 'span_minutes', 'minute'],
        rows,
        owned: sql`t.vehicle_id = w.vehicle_id AND t.span_minutes = w.span AND t.minute >= w.lo AND t.minute < w.hi`,
      }),
    ],
    [cover],
    pass?.hold,
  );
}
