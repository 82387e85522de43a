/**
 * A vehicle's track over a time range, read in keyset pages (device-time order) so a month of
 * reports is never one result set: the raw replay streams page by page, and the simplified one
 * keeps compact typed arrays. The summary (distance, duration, top speed) accumulates on the way.
 */

import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { stepKm, type StepPoint } from '../intelligence/track/minuteDeriver';
import { odometerPlausible } from '../intelligence/plausible';
import type { TrackArrays } from './simplify';

export const TRACK_PAGE = 20_000;

/** One page of the track as columns (mileage NaN where the report had none). */
export interface TrackPage extends TrackArrays {
  acc: Uint8Array;
  mileage: Float64Array;
}

/** Splits a page's text (`ms,lat,lon,speed,direction,acc,mileage;…`, mileage empty when absent) into columns. */
export function parsePage(text: string, length: number): TrackPage {
  const page: TrackPage = {
    length,
    time: new Float64Array(length),
    latitude: new Float64Array(length),
    longitude: new Float64Array(length),
    speed: new Float32Array(length),
    direction: new Float32Array(length),
    acc: new Uint8Array(length),
    mileage: new Float64Array(length),
  };
  let pos = 0;
  const next = (end: string) => {
    let stop = text.indexOf(end, pos);
    if (stop < 0) stop = text.length;
    const field = text.slice(pos, stop);
    pos = stop + 1;
    return field;
  };
  for (let i = 0; i < length; i++) {
    page.time[i] = Number(next(','));
    page.latitude[i] = Number(next(','));
    page.longitude[i] = Number(next(','));
    page.speed[i] = Number(next(','));
    page.direction[i] = Number(next(','));
    page.acc[i] = next(',') === '1' ? 1 : 0;
    const m = next(';');
    page.mileage[i] = m === '' ? NaN : Number(m);
  }
  return page;
}

/**
 * Pages of the track in device-time order. Pages follow the (vehicle, device time) index: each
 * ends before its last instant, which the next page starts with (`>=`), so rows sharing an instant
 * (two terminals of one vehicle) are never split or repeated, and no page sorts the whole range.
 * A page travels as one text value the database joins, not as thousands of rows: parsing rows
 * field by field was most of a month's replay.
 */
export async function* trackPages(
  db: Kysely<DB>,
  vehicleId: number,
  from: number,
  to: number,
  pageSize = TRACK_PAGE,
): AsyncGenerator<TrackPage> {
  let since = new Date(from);
  for (;;) {
    const r: { rows: Array<{ n: number; body: string | null; last: number | null }> } = await sql<{
      n: number;
      body: string | null;
      last: number | null;
    }>`
      SELECT count(*)::int AS n, max(ms) AS last,
             string_agg(concat_ws(',', ms, latitude, longitude, speed, direction, acc::int, COALESCE(mileage_km::text, '')), ';') AS body
      FROM (
        SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, speed, direction, acc, mileage_km
        FROM position
        WHERE vehicle_id = ${vehicleId} AND device_time >= ${since} AND device_time <= ${new Date(to)}
        ORDER BY device_time LIMIT ${pageSize}
      ) page`.execute(db);
    const { n, body, last } = r.rows[0];
    if (!n || body === null) return;
    const page = parsePage(body, n);
    if (n < pageSize) {
      yield page;
      return;
    }
    const lastMs = Number(last);
    let cut = n;
    while (cut > 0 && page.time[cut - 1] === lastMs) cut--;
    if (cut === 0) throw new Error(`more than ${pageSize} positions of vehicle ${vehicleId} at one instant`);
    yield slicePage(page, cut);
    since = new Date(Math.round(lastMs));
  }
}

const slicePage = (p: TrackPage, n: number): TrackPage => ({
  length: n,
  time: p.time.subarray(0, n),
  latitude: p.latitude.subarray(0, n),
  longitude: p.longitude.subarray(0, n),
  speed: p.speed.subarray(0, n),
  direction: p.direction.subarray(0, n),
  acc: p.acc.subarray(0, n),
  mileage: p.mileage.subarray(0, n),
});

export interface TrackSummary {
  distanceKm: number;
  durationS: number;
  maxSpeed: number;
}

/** A point as the summary needs it (speed as the reader holds it: float4). */
type SummaryPoint = StepPoint;

/**
 * Accumulates the summary: the odometer when it is present, never runs backwards and never outruns
 * a vehicle (plausible.ts), else the GNSS track without standing jitter and jumps (stepKm). It is
 * the distance travelled over the range: where the vehicle moved only in trips it is their sum (to
 * the odometer's and the GNSS track's difference when they read different sources), and it also
 * holds what no trip does (parked GNSS drift beyond the standing jitter, a part of a trip the range
 * cuts, counted whole here and by its share of time in the ledger).
 */
export class SummaryAccumulator {
  private first: number | null = null;
  private last = 0;
  private maxSpeed = 0;
  private gnss = 0;
  private prev: SummaryPoint | null = null;
  private odoFirst: number | null = null;
  private odoLast: number | null = null;
  private odoSane = true;

  /** Point i of a page. */
  addAt(page: TrackPage, i: number): void {
    const p = { time: page.time[i], latitude: page.latitude[i], longitude: page.longitude[i], speed: page.speed[i] };
    const mileage = page.mileage[i];
    this.addPoint(p);
    this.addOdometer(Number.isNaN(mileage) ? null : mileage, mileage, true);
  }

  /**
   * A bucket of a level (trackMinute deriver), in time order with the points around it: its first
   * point (index `first` of the arrays), its last, the GNSS distance between its own reports, its
   * top speed and its odometer ends; as if each of its reports had been added.
   */
  addBucket(
    t: TrackArrays,
    first: number,
    last: number,
    m: { gnssKm: number; maxSpeed: number; odoFirst: number | null; odoLast: number | null; odoSane: boolean },
  ): void {
    this.addPoint({ time: t.time[first], latitude: t.latitude[first], longitude: t.longitude[first], speed: t.speed[first] });
    this.gnss += m.gnssKm;
    if (m.maxSpeed > this.maxSpeed) this.maxSpeed = m.maxSpeed;
    this.last = t.time[last];
    this.prev = { time: t.time[last], latitude: t.latitude[last], longitude: t.longitude[last], speed: t.speed[last] };
    if (m.odoFirst !== null) this.addOdometer(m.odoFirst, m.odoLast ?? m.odoFirst, m.odoSane);
  }

  private addPoint(p: SummaryPoint): void {
    this.first ??= p.time;
    this.last = p.time;
    if (p.speed > this.maxSpeed) this.maxSpeed = p.speed;
    if (this.prev) this.gnss += stepKm(this.prev, p);
    this.prev = p;
  }

  /** Odometer readings from `first` to `last` (one reading: both the same), `sane` when they never ran backwards between. */
  private addOdometer(first: number | null, last: number, sane: boolean): void {
    if (first === null) return;
    if ((this.odoLast !== null && first < this.odoLast) || !sane) this.odoSane = false;
    this.odoFirst ??= first;
    this.odoLast = last;
  }

  result(): TrackSummary {
    const odo = this.odoSane && this.odoFirst !== null && this.odoLast !== null ? this.odoLast - this.odoFirst : null;
    const distance = odo !== null && odometerPlausible(this.first ?? 0, this.last, odo) ? odo : this.gnss;
    return {
      distanceKm: Math.round(distance * 1000) / 1000,
      durationS: this.first === null ? 0 : Math.round((this.last - this.first) / 1000),
      maxSpeed: this.maxSpeed,
    };
  }
}

/** A replay point: [time, latitude, longitude, speed, direction, acc]. */
export type ReplayPoint = [string, number, number, number, number, boolean];

/** The track as typed arrays for simplification, grown as points come (page by page, or minute by minute from the level). */
export class TrackBuilder {
  private cap = 1024;
  length = 0;
  time = new Float64Array(this.cap);
  latitude = new Float64Array(this.cap);
  longitude = new Float64Array(this.cap);
  speed = new Float32Array(this.cap);
  direction = new Float32Array(this.cap);
  acc = new Uint8Array(this.cap);

  /** Room for n more points. */
  reserve(n: number): void {
    if (this.length + n <= this.cap) return;
    while (this.length + n > this.cap) this.cap *= 2;
    const grow = <A extends Float64Array | Float32Array | Uint8Array>(a: A, make: (c: number) => A) => {
      const b = make(this.cap);
      b.set(a.subarray(0, this.length));
      return b;
    };
    this.time = grow(this.time, (c) => new Float64Array(c));
    this.latitude = grow(this.latitude, (c) => new Float64Array(c));
    this.longitude = grow(this.longitude, (c) => new Float64Array(c));
    this.speed = grow(this.speed, (c) => new Float32Array(c));
    this.direction = grow(this.direction, (c) => new Float32Array(c));
    this.acc = grow(this.acc, (c) => new Uint8Array(c));
  }

  addPage(page: TrackPage): void {
    this.reserve(page.length);
    const n = this.length;
    this.time.set(page.time, n);
    this.latitude.set(page.latitude, n);
    this.longitude.set(page.longitude, n);
    this.speed.set(page.speed, n);
    this.direction.set(page.direction, n);
    this.acc.set(page.acc, n);
    this.length += page.length;
  }

  /** One point (after reserve). */
  push(time: number, latitude: number, longitude: number, speed: number, direction: number, acc: boolean): void {
    const n = this.length++;
    this.time[n] = time;
    this.latitude[n] = latitude;
    this.longitude[n] = longitude;
    this.speed[n] = speed;
    this.direction[n] = direction;
    this.acc[n] = acc ? 1 : 0;
  }

  track(): TrackArrays & { acc: Uint8Array } {
    return {
      length: this.length,
      time: this.time,
      latitude: this.latitude,
      longitude: this.longitude,
      speed: this.speed,
      direction: this.direction,
      acc: this.acc,
    };
  }
}

/** Raw pages of [from, to] added to a track and a summary. */
export async function addRaw(
  db: Kysely<DB>,
  vehicleId: number,
  from: number,
  to: number,
  track: TrackBuilder,
  summary: SummaryAccumulator,
): Promise<void> {
  for await (const page of trackPages(db, vehicleId, from, to)) {
    track.addPage(page);
    for (let i = 0; i < page.length; i++) summary.addAt(page, i);
  }
}

/** The whole track as typed arrays (for simplification) and its summary. */
export async function readTrack(
  db: Kysely<DB>,
  vehicleId: number,
  from: number,
  to: number,
): Promise<{ track: TrackArrays & { acc: Uint8Array }; summary: TrackSummary }> {
  const track = new TrackBuilder();
  const summary = new SummaryAccumulator();
  await addRaw(db, vehicleId, from, to, track, summary);
  return { track: track.track(), summary: summary.result() };
}

export const pointAt = (t: TrackArrays & { acc: Uint8Array }, i: number): ReplayPoint => [
  new Date(t.time[i]).toISOString(),
  t.latitude[i],
  t.longitude[i],
  Math.round(t.speed[i] * 10) / 10,
  t.direction[i],
  t.acc[i] === 1,
];

/**
 * The raw replay as a JSON stream: `{"points":[…],"stops":[…],"summary":{…}}`, one page of points
 * in memory at a time; `stops` are known before, the summary after the points.
 */
export function streamReplay(db: Kysely<DB>, vehicleId: number, from: number, to: number, stops: unknown[]): Readable {
  async function* body(): AsyncGenerator<string> {
    yield '{"points":[';
    const summary = new SummaryAccumulator();
    let first = true;
    for await (const page of trackPages(db, vehicleId, from, to)) {
      const parts: string[] = [];
      for (let i = 0; i < page.length; i++) {
        summary.addAt(page, i);
        parts.push(JSON.stringify(pointAt(page, i)));
      }
      yield (first ? '' : ',') + parts.join(',');
      first = false;
    }
    yield `],"stops":${JSON.stringify(stops)},"summary":${JSON.stringify(summary.result())}}`;
  }
  return Readable.from(body());
}
