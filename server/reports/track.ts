/**
 * A vehicle's track over a time range, read in keyset pages (device-time order) so a month of
 * reports is never one result set: the raw replay streams page by page, and the simplified one
 * keeps compact typed arrays. The summary (distance, duration, top speed) accumulates on the way.
 */

import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { distanceKm } from '../intelligence/geo';
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
export async function* trackPages(db: Kysely<DB>, vehicleId: number, from: number, to: number, pageSize = TRACK_PAGE): AsyncGenerator<TrackPage> {
  let since = new Date(from);
  for (;;) {
    const r: { rows: Array<{ n: number; body: string | null; last: number | null }> } = await sql<{ n: number; body: string | null; last: number | null }>`
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

/** Accumulates the summary: the odometer when it is present and never runs backwards, else the GNSS track. */
export class SummaryAccumulator {
  private first: number | null = null;
  private last = 0;
  private maxSpeed = 0;
  private gnss = 0;
  private prev: { latitude: number; longitude: number; speed: number } | null = null;
  private odoFirst: number | null = null;
  private odoLast: number | null = null;
  private odoSane = true;

  /** Point i of a page. */
  addAt(page: TrackPage, i: number): void {
    const p = { latitude: page.latitude[i], longitude: page.longitude[i], speed: page.speed[i] };
    const mileage = page.mileage[i];
    this.add(page.time[i], p, Number.isNaN(mileage) ? null : mileage);
  }

  private add(t: number, p: { latitude: number; longitude: number; speed: number }, mileageKm: number | null): void {
    this.first ??= t;
    this.last = t;
    if (p.speed > this.maxSpeed) this.maxSpeed = p.speed;
    if (this.prev) {
      const d = distanceKm(this.prev, p);
      const standing = p.speed < 5 && this.prev.speed < 5 && d < 0.03;
      if (!standing) this.gnss += d;
    }
    this.prev = p;
    if (mileageKm !== null) {
      if (this.odoLast !== null && mileageKm < this.odoLast) this.odoSane = false;
      this.odoFirst ??= mileageKm;
      this.odoLast = mileageKm;
    }
  }

  result(): TrackSummary {
    const odo = this.odoSane && this.odoFirst !== null && this.odoLast !== null ? this.odoLast - this.odoFirst : null;
    const hours = this.first === null ? 0 : (this.last - this.first) / 3_600_000;
    const distance = odo !== null && odo <= 250 * hours + 0.5 ? odo : this.gnss;
    return {
      distanceKm: Math.round(distance * 1000) / 1000,
      durationS: this.first === null ? 0 : Math.round((this.last - this.first) / 1000),
      maxSpeed: this.maxSpeed,
    };
  }
}

/** A replay point: [time, latitude, longitude, speed, direction, acc]. */
export type ReplayPoint = [string, number, number, number, number, boolean];


/** The whole track as typed arrays (for simplification) and its summary. */
export async function readTrack(db: Kysely<DB>, vehicleId: number, from: number, to: number): Promise<{ track: TrackArrays & { acc: Uint8Array }; summary: TrackSummary }> {
  let cap = 1024;
  let n = 0;
  let t = { time: new Float64Array(cap), latitude: new Float64Array(cap), longitude: new Float64Array(cap), speed: new Float32Array(cap), direction: new Float32Array(cap), acc: new Uint8Array(cap) };
  const acc = new SummaryAccumulator();
  for await (const page of trackPages(db, vehicleId, from, to)) {
    if (n + page.length > cap) {
      while (n + page.length > cap) cap *= 2;
      const grow = <A extends Float64Array | Float32Array | Uint8Array>(a: A, make: (c: number) => A) => {
        const b = make(cap);
        b.set(a.subarray(0, n));
        return b;
      };
      t = {
        time: grow(t.time, (c) => new Float64Array(c)),
        latitude: grow(t.latitude, (c) => new Float64Array(c)),
        longitude: grow(t.longitude, (c) => new Float64Array(c)),
        speed: grow(t.speed, (c) => new Float32Array(c)),
        direction: grow(t.direction, (c) => new Float32Array(c)),
        acc: grow(t.acc, (c) => new Uint8Array(c)),
      };
    }
    t.time.set(page.time, n);
    t.latitude.set(page.latitude, n);
    t.longitude.set(page.longitude, n);
    t.speed.set(page.speed, n);
    t.direction.set(page.direction, n);
    t.acc.set(page.acc, n);
    for (let i = 0; i < page.length; i++) acc.addAt(page, i);
    n += page.length;
  }
  return { track: { length: n, ...t }, summary: acc.result() };
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
