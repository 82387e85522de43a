/**
 * Trail's anchor is where the ignition went off, or where the last towing since ended (the rule
 * re-anchors at the first report 5 minutes after the tow's last move: detectors/policyRules.ts,
 * trail). Whatever window a pass reads, the rule must go on from that anchor, or it would anchor
 * wherever the window happens to begin: a live pass, a later rebuild and a derivation at once
 * found (and announced) a towing at different reports. The anchor is read by key for the window's
 * start and handed to the rule as a prefix, so a pass of a vehicle parked for days reads its own
 * look-back, not the days since the ignition went off. A tow under way at the window's start
 * goes on from its anchor, its first report and its reports since its last moving one (its peak
 * distance before is the stored alarm's: deriver.ts); one whose last move lies before the start
 * but whose re-anchoring report does not is reached back to instead (alarmWindowBounds), as it
 * is not carried (carry.ts carries alarms still open at the start).
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DerivePosition, TimeRange } from '../deriver';
import { POSITION_COLUMNS, toPosition, type PositionRow } from '../windowLoad';
import { MOVING_KMH } from './detectors/motionRules';
import { windowBounds } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

/** How long a towed vehicle stands before the rule re-anchors (policyRules.ts trail). */
const REANCHOR = sql`interval '5 minutes'`;

/** The windows `w(vehicle_id, lo, ord)` of the items with a bounded start. */
function startsTable(items: ReadonlyArray<{ vehicleId: number; from: number }>, asked: readonly number[]): RawBuilder<unknown> {
  return sql`unnest(${asked.map((i) => items[i].vehicleId)}::int[], ${asked.map((i) => iso(items[i].from))}::timestamptz[]) WITH ORDINALITY AS w(vehicle_id, lo, ord)`;
}

/**
 * Per window, the vehicle's last report with the ignition on before `w.lo` (`o.t`), its latest
 * towing since (`tw`), the first report when that towing re-anchored (`r.t`), and whether it is
 * still under way at `w.lo` (`going`): laterals over `w`, each one indexed step.
 */
const TOW_AT_START = sql`
    LEFT JOIN LATERAL (
      SELECT device_time AS t FROM position WHERE vehicle_id = w.vehicle_id AND device_time < w.lo AND acc IS TRUE ORDER BY device_time DESC LIMIT 1
    ) o ON true
    LEFT JOIN LATERAL (
      SELECT begin_time, end_time FROM alarm
      WHERE vehicle_id = w.vehicle_id AND type = 'Trail' AND state = 'current' AND begin_time < w.lo AND begin_time > coalesce(o.t, '-infinity')
      ORDER BY begin_time DESC LIMIT 1
    ) tw ON true
    LEFT JOIN LATERAL (
      SELECT device_time AS t FROM position WHERE vehicle_id = w.vehicle_id AND device_time >= tw.end_time + ${REANCHOR} ORDER BY device_time LIMIT 1
    ) r ON tw.end_time IS NOT NULL
    CROSS JOIN LATERAL (SELECT tw.begin_time IS NOT NULL AND (r.t IS NULL OR r.t >= w.lo) AS going) g`;

/**
 * Per window (in order), the reports Trail's rule reads before `from` so that it stands where a
 * walk from the vehicle's first report would: the anchor, and for a tow under way its first report
 * and its reports from its last moving one on. Empty when the ignition was on at the last report
 * before `from` (or there is none). One statement for all the windows.
 */
export async function trailPrefixes(
  db: Kysely<DB>,
  items: ReadonlyArray<{ vehicleId: number; from: number }>,
): Promise<DerivePosition[][]> {
  const out = items.map((): DerivePosition[] => []);
  const asked = items.flatMap((x, i) => (Number.isFinite(x.from) ? [i] : []));
  if (!asked.length) return out;
  const r = await sql<PositionRow & { ord: number }>`
    SELECT w.ord, x.* FROM ${startsTable(items, asked)}
    ${TOW_AT_START}
    -- Under way: the towing before it ended before it began, so its anchor is that one's re-anchoring.
    LEFT JOIN LATERAL (
      SELECT end_time FROM alarm
      WHERE vehicle_id = w.vehicle_id AND type = 'Trail' AND state = 'current' AND begin_time < tw.begin_time AND begin_time > coalesce(o.t, '-infinity')
      ORDER BY begin_time DESC LIMIT 1
    ) tp ON g.going
    LEFT JOIN LATERAL (
      SELECT device_time AS t FROM position WHERE vehicle_id = w.vehicle_id AND device_time >= tp.end_time + ${REANCHOR} ORDER BY device_time LIMIT 1
    ) rp ON tp.end_time IS NOT NULL
    LEFT JOIN LATERAL (
      SELECT device_time AS t FROM position
      WHERE vehicle_id = w.vehicle_id AND device_time >= tw.begin_time AND device_time < w.lo AND speed >= ${MOVING_KMH}
      ORDER BY device_time DESC LIMIT 1
    ) mv ON g.going
    CROSS JOIN LATERAL (
      (SELECT ${POSITION_COLUMNS}, device_time, terminal_id FROM position
       WHERE vehicle_id = w.vehicle_id AND device_time > coalesce(o.t, '-infinity') AND device_time < w.lo
         AND device_time >= coalesce(CASE WHEN g.going THEN rp.t ELSE r.t END, '-infinity')
       ORDER BY device_time, terminal_id LIMIT 1)
      UNION ALL
      (SELECT ${POSITION_COLUMNS}, device_time, terminal_id FROM position
       WHERE g.going AND vehicle_id = w.vehicle_id AND device_time >= tw.begin_time AND device_time < w.lo
         AND (device_time = tw.begin_time OR device_time >= mv.t OR mv.t IS NULL))
    ) x
    ORDER BY w.ord, x.device_time, x.terminal_id`.execute(db);
  for (const row of r.rows) {
    const list = out[asked[Number(row.ord) - 1]];
    const p = toPosition(row);
    // The anchor may be the tow's first report itself only when read twice: keep one.
    if (!list.length || list[list.length - 1].time < p.time) list.push(p);
  }
  return out;
}

/** Per item (in order), the begin of a towing under way at `from` that is no longer open there (its stored end before it); else null. */
async function towsNotOpen(db: Kysely<DB>, items: ReadonlyArray<{ vehicleId: number; from: number }>): Promise<Array<number | null>> {
  const asked = items.flatMap((x, i) => (Number.isFinite(x.from) ? [i] : []));
  const out: Array<number | null> = items.map(() => null);
  if (!asked.length) return out;
  const r = await sql<{ ord: number; t: Date }>`
    SELECT w.ord, tw.begin_time AS t FROM ${startsTable(items, asked)}
    ${TOW_AT_START}
    WHERE g.going AND tw.end_time < w.lo`.execute(db);
  for (const row of r.rows) out[asked[Number(row.ord) - 1]] = new Date(row.t).getTime();
  return out;
}

/** Rounds of reaching back at most: each one only moves a window back, and a second is already rare. */
const MAX_ROUNDS = 4;

/**
 * windowBounds (back to the begin of any alarm still open that is not carried, on to the end of any
 * that lasts), and for the ranges `anchored` marks (under a Trail policy), back also to a towing
 * under way at the start that is not carried (towsNotOpen): again after each move, since an alarm
 * open there may begin inside another.
 */
export async function alarmWindowBounds(
  db: Kysely<DB>,
  items: ReadonlyArray<{ vehicleId: number; from: number; to: number }>,
  anchored: readonly boolean[],
): Promise<TimeRange[]> {
  let bounds = await windowBounds(db, items, { carry: true });
  const marked = items.flatMap((_, i) => (anchored[i] ? [i] : []));
  for (let round = 0; marked.length && round < MAX_ROUNDS; round++) {
    const tows = await towsNotOpen(
      db,
      marked.map((i) => ({ vehicleId: items[i].vehicleId, from: bounds[i].from })),
    );
    if (tows.every((t) => t === null)) break;
    const reached = bounds.map((b) => ({ ...b }));
    marked.forEach((i, k) => {
      if (tows[k] !== null) reached[i].from = Math.min(reached[i].from, tows[k]!);
    });
    bounds = await windowBounds(
      db,
      items.map((x, i) => ({ vehicleId: x.vehicleId, ...reached[i] })),
      { carry: true },
    );
  }
  return bounds;
}
