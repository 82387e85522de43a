/**
 * The track of a long range for simplification, read from a pre-decimated level (`track_minute`,
 * the trackMinute deriver) where it holds every report: the whole buckets (of 10 minutes, or of one
 * for a shorter range) inside the range that are derived and covered come as their first, fastest,
 * slowest and last point (one query, one joined text value); the range's partial buckets at its
 * edges and what is not derived yet come raw. The summary is the raw read's: the level carries each
 * bucket's GNSS distance and odometer ends, the steps between buckets are taken here from the
 * neighbouring points (the same steps, summed bucket by bucket: any difference is in the last bits
 * of a double, far below the metre the summary is rounded to). Short or sparse ranges are read raw.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { ceilTo, floorTo, LEVEL_MINUTES, MINUTE_MS } from '../intelligence/track/minuteDeriver';
import type { TrackArrays } from './simplify';
import { addRaw, readTrack, SummaryAccumulator, TrackBuilder, type TrackSummary } from './track';

/**
 * A level serves when its buckets give at least maxPoints / LEVEL_MIN_SHARE points to choose from
 * (a bucket gives two to four) and hold at least LEVEL_MIN_GAIN reports each on average (else the
 * raw read is no longer, and exact). The coarsest level that serves is read.
 */
export const LEVEL_MIN_SHARE = 2;
export const LEVEL_MIN_GAIN = 2;

/** Where a vehicle's levels hold every report: from `cover` (bucket-aligned) to before `derived` (epoch ms), or null. */
export async function levelState(db: Kysely<DB>, vehicleId: number): Promise<{ cover: number; derived: number } | null> {
  const r = await sql<{ cover: number | null; watermark: number | null; pending: number | null }>`
    SELECT (extract(epoch FROM c.covered_from) * 1000)::float8 AS cover, (extract(epoch FROM d.watermark) * 1000)::float8 AS watermark,
           (extract(epoch FROM (SELECT min(m.pending_from) FROM derive_mark m WHERE m.vehicle_id = d.vehicle_id)) * 1000)::float8 AS pending
    FROM derive_state d JOIN track_minute_cover c ON c.vehicle_id = d.vehicle_id
    WHERE d.vehicle_id = ${vehicleId}`.execute(db);
  const s = r.rows[0];
  if (!s || s.cover === null || s.watermark === null) return null;
  // Reports before `derived` are derived: up to the watermark, and short of a pending range (a late upload not derived yet).
  return { cover: Number(s.cover), derived: Math.min(Number(s.watermark) + 1, s.pending === null ? Infinity : Number(s.pending)) };
}

/** [lo, hi): the derived and covered part of [from, to] as whole buckets of `step` ms, or null. */
export function levelSpan(
  state: { cover: number; derived: number },
  from: number,
  to: number,
  step: number,
): { lo: number; hi: number } | null {
  const lo = Math.max(ceilTo(from, step), ceilTo(state.cover, step));
  const hi = Math.min(floorTo(to + 1, step), floorTo(state.derived, step));
  return hi > lo ? { lo, hi } : null;
}

/** Splits a level's text (rows `n,gnss,odoFirst,odoLast,sane,k,<k points of ms,lat,lon,speed,direction,acc>` joined by ';') into the track and the summary. */
export function addLevelText(text: string, track: TrackBuilder, summary: SummaryAccumulator, buckets: number): void {
  track.reserve(buckets * 4);
  let pos = 0;
  const next = () => {
    const stop = text.indexOf(',', pos);
    const field = text.slice(pos, stop);
    pos = stop + 1;
    return field;
  };
  // A point's acc, one character, ends it and, for the last point, the row (',' or ';' after it).
  const acc = () => {
    const on = text.charCodeAt(pos) === 49; /* '1' */
    pos += 2;
    return on;
  };
  const t: TrackArrays = track;
  while (pos < text.length) {
    pos = text.indexOf(',', pos) + 1; // n: the count, for the table's other readers
    const gnssKm = Number(next());
    const of = next();
    const ol = next();
    const odoSane = next() === '1';
    const k = Number(next());
    const first = track.length;
    let maxSpeed = 0;
    for (let j = 0; j < k; j++) {
      track.push(Number(next()), Number(next()), Number(next()), Number(next()), Number(next()), acc());
      if (t.speed[track.length - 1] > maxSpeed) maxSpeed = t.speed[track.length - 1];
    }
    summary.addBucket(t, first, track.length - 1, {
      gnssKm,
      maxSpeed,
      odoFirst: of === '' ? null : Number(of),
      odoLast: ol === '' ? null : Number(ol),
      odoSane,
    });
  }
}

/**
 * The track of [from, to] and its summary for simplification to maxPoints: through the coarsest level
 * that serves (`source: 'tenMinutes'` or `'minutes'`), else every raw report (`'raw'`). The summary is
 * the same either way.
 */
export async function readTrackForSimplify(
  db: Kysely<DB>,
  vehicleId: number,
  from: number,
  to: number,
  maxPoints: number,
): Promise<{ track: TrackArrays & { acc: Uint8Array }; summary: TrackSummary; source: 'minutes' | 'tenMinutes' | 'raw' }> {
  const state = await levelState(db, vehicleId);
  for (const spanMinutes of state ? [...LEVEL_MINUTES].reverse() : []) {
    const step = spanMinutes * MINUTE_MS;
    const span = levelSpan(state!, from, to, step);
    if (!span || ((span.hi - span.lo) / step) * LEVEL_MIN_SHARE < maxPoints) continue;
    // One statement: the buckets, their reports and the joined text (the count decides whether it serves).
    const r = await sql<{ buckets: number; n: number; body: string | null }>`
      SELECT count(*)::int AS buckets, COALESCE(sum(n), 0)::int AS n,
             string_agg(concat_ws(',', n, gnss_km, COALESCE(odo_first::text, ''), COALESCE(odo_last::text, ''), odo_sane::int, points), ';') AS body
      FROM (
        SELECT n, gnss_km, odo_first, odo_last, odo_sane, points FROM track_minute
        WHERE vehicle_id = ${vehicleId} AND span_minutes = ${spanMinutes} AND minute >= ${new Date(span.lo)} AND minute < ${new Date(span.hi)}
        ORDER BY minute
      ) m`.execute(db);
    const { buckets, n, body } = r.rows[0];
    if (buckets * LEVEL_MIN_SHARE < maxPoints || n < buckets * LEVEL_MIN_GAIN) continue;
    const track = new TrackBuilder();
    const summary = new SummaryAccumulator();
    if (span.lo > from) await addRaw(db, vehicleId, from, span.lo - 1, track, summary);
    addLevelText(body ?? '', track, summary, buckets);
    if (span.hi <= to) await addRaw(db, vehicleId, span.hi, to, track, summary);
    return { track: track.track(), summary: summary.result(), source: spanMinutes === 1 ? 'minutes' : 'tenMinutes' };
  }
  return { ...(await readTrack(db, vehicleId, from, to)), source: 'raw' };
}
