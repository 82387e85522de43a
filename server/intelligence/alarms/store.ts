/**
 * The alarm lifecycle in the database: a vehicle's alarms from a window start on are replaced by
 * what the detectors found, in one transaction. An alarm that is found again (same vehicle, type,
 * subject and begin) keeps its id and its handling; clock-driven types are left to the clock.
 *
 * An alarm no longer found is removed when nobody handled it (nothing a person entered is lost, and
 * history is not filled with what new data showed never happened). A handled one is never removed:
 * it stays as history, `withdrawn`, or `superseded` by the alarm of its vehicle, type and subject
 * that overlaps it in time (its begin moved, two merged, one split), which takes its handling
 * over (handler, time, note) and is not announced as a fresh alarm. Only `current` alarms are
 * open, listed as current, counted and rebuilt.
 */

import type { DB } from '../../platform/db/tables';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ALARM_META, CLOCK_TYPES, type AlarmInterval, type AlarmType } from './types';
import { boundText } from '../deriver';
import { alongside } from '../../platform/db/replaceRows';
import { carryable } from './carry';

/** An alarm row the rebuild created (not one it found again). */
export interface StoredAlarm {
  id: number;
  vehicleId: number;
  type: AlarmType;
  subject: string;
  begin: number;
  end: number | null;
  level: string;
  category: string;
  latitude: number | null;
  longitude: number | null;
  value: number | null;
  fenceId: number | null;
  detail: Record<string, unknown> | null;
}

/** A new alarm with its vehicle's organisation path: what the engine announces (bus, notifications). */
export interface RaisedAlarm extends StoredAlarm {
  orgPath: string;
}

const iso = (ms: number | null) => (ms === null || !Number.isFinite(ms) ? null : new Date(ms).toISOString());

/** An alarm's key: at most one row per vehicle, type, subject and begin. */
export const alarmKey = (vehicleId: number, type: string, subject: string, begin: number) =>
  `${vehicleId}\u0000${type}\u0000${subject}\u0000${begin}`;

/** A found interval as the vehicle's alarm row: the type's level unless the interval has its own, the type's category. */
export function rowOf(vehicleId: number, a: AlarmInterval): Omit<StoredAlarm, 'id'> {
  return {
    vehicleId,
    type: a.type,
    subject: a.subject,
    begin: a.begin,
    end: a.end,
    level: a.level ?? ALARM_META[a.type].level,
    category: ALARM_META[a.type].category,
    latitude: a.latitude,
    longitude: a.longitude,
    value: a.value,
    fenceId: a.fenceId ?? null,
    detail: a.detail ?? null,
  };
}

/** The columns `rowsToInsert` selects, in its order. */
export const ALARM_INSERT_COLUMNS = sql`(vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail, fence_id)`;

/**
 * Alarm rows as the source of one INSERT (`INSERT INTO alarm ${ALARM_INSERT_COLUMNS} ${rowsToInsert(…)}`),
 * in the order given: an empty detail is stored as none.
 */
export function rowsToInsert(rows: ReadonlyArray<Omit<StoredAlarm, 'id'> & { firedAt: number }>) {
  const detailOf = (a: Omit<StoredAlarm, 'id'>) => (a.detail && Object.keys(a.detail).length ? JSON.stringify(a.detail) : null);
  return sql`
    SELECT r.vehicle_id, r.type, r.category, r.level, r.subject, r.begin_time, r.end_time, r.fired_at, r.latitude, r.longitude, r.value, r.detail::jsonb, r.fence_id
    FROM unnest(${rows.map((a) => a.vehicleId)}::int[], ${rows.map((a) => a.type)}::text[], ${rows.map((a) => a.category)}::text[], ${rows.map((a) => a.level)}::text[],
                ${rows.map((a) => a.subject)}::text[], ${rows.map((a) => iso(a.begin))}::timestamptz[], ${rows.map((a) => iso(a.end))}::timestamptz[],
                ${rows.map((a) => iso(a.firedAt))}::timestamptz[], ${rows.map((a) => a.latitude)}::float8[], ${rows.map((a) => a.longitude)}::float8[],
                ${rows.map((a) => a.value)}::float8[], ${rows.map(detailOf)}::text[], ${rows.map((a) => a.fenceId)}::int[])
      WITH ORDINALITY AS r(vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, latitude, longitude, value, detail, fence_id, ord)
    ORDER BY r.ord`;
}

/**
 * The earliest begin of this vehicle's report-driven alarms that are still open at `at` or end
 * after it: a rebuild from `at` must start there, so no alarm is cut in two.
 */
export async function windowStart(db: Kysely<DB>, vehicleId: number, at: number): Promise<number> {
  return (await windowBounds(db, [{ vehicleId, from: at, to: Infinity }]))[0].from;
}

/**
 * Where rebuilds of these ranges must start and end so that no report-driven alarm is cut in two
 * (with `carry`, but for the alarms carried into a window instead: carry.ts),
 * for all of them in one statement, answered in the order given: back to windowStart of `from`, and
 * on to the latest end of the alarms that began before `to` and last beyond it (Infinity when one
 * is still open). An unbounded side stays so.
 */
export async function windowBounds(
  db: Kysely<DB>,
  items: ReadonlyArray<{ vehicleId: number; from: number; to: number }>,
  opts: { carry?: boolean } = {},
): Promise<Array<{ from: number; to: number }>> {
  const out = items.map((x) => ({ from: x.from, to: x.to }));
  if (!items.some((x) => Number.isFinite(x.from) || Number.isFinite(x.to))) return out;
  const r = await sql<{ ord: number; begin: Date | null; open: boolean | null; end: Date | null }>`
    SELECT w.ord, s.begin, e.open, e."end"
    FROM unnest(${items.map((x) => x.vehicleId)}::int[], ${items.map((x) => iso(x.from))}::timestamptz[], ${items.map((x) => iso(x.to))}::timestamptz[]) WITH ORDINALITY AS w(vehicle_id, lo, hi, ord)
    LEFT JOIN LATERAL (
      SELECT min(a.begin_time) AS begin FROM alarm a
      WHERE a.vehicle_id = w.vehicle_id AND a.begin_time < w.lo AND (a.end_time IS NULL OR a.end_time >= w.lo) AND a.type <> ALL (${[...CLOCK_TYPES]}::text[]) AND a.state = 'current'
        ${opts.carry ? sql`AND NOT ${carryable('a')}` : sql``}
    ) s ON w.lo IS NOT NULL
    LEFT JOIN LATERAL (
      SELECT bool_or(a.end_time IS NULL) AS open, max(a.end_time) AS "end" FROM alarm a
      WHERE a.vehicle_id = w.vehicle_id AND a.begin_time < w.hi AND (a.end_time IS NULL OR a.end_time > w.hi) AND a.type <> ALL (${[...CLOCK_TYPES]}::text[]) AND a.state = 'current'
    ) e ON w.hi IS NOT NULL`.execute(db);
  for (const row of r.rows) {
    const i = Number(row.ord) - 1;
    const { from, to } = items[i];
    if (row.begin) out[i].from = Math.min(from, new Date(row.begin).getTime());
    if (row.open) out[i].to = Infinity;
    else if (row.end) out[i].to = Math.max(to, new Date(row.end).getTime());
  }
  return out;
}

/**
 * Replaces the vehicle's report-driven alarms beginning in [from, to) with `found` (merged; those
 * beginning outside are ignored). Returns the alarms that did not exist before. Runs in the
 * caller's transaction when given one.
 */
export async function replaceAlarms(
  db: Kysely<DB>,
  vehicleId: number,
  from: number,
  found: readonly AlarmInterval[],
  to = Infinity,
): Promise<StoredAlarm[]> {
  return (await replaceAlarmsMany(db, [{ vehicleId, from, to, found }]))[0];
}

/** What replaceAlarmsMany replaces for one vehicle (one vehicle per item). */
export interface AlarmReplacement {
  vehicleId: number;
  from: number;
  to: number;
  found: readonly AlarmInterval[];
  /**
   * Ids of the alarms carried into the window (carry.ts): begun before `from`, found again by the
   * rules going on from them (same key), or gone like any other alarm of the window.
   */
  carried?: ReadonlyArray<{ id: number; type: string; subject: string; begin: number }>;
}

/**
 * replaceAlarms for several vehicles in two statements (one delete, one insert-or-update), answered
 * per item in the order given.
 */
export async function replaceAlarmsMany(
  db: Kysely<DB>,
  items: readonly AlarmReplacement[],
  also: ReadonlyArray<RawBuilder<unknown>> = [],
): Promise<StoredAlarm[][]> {
  const rowsOf = items.map(({ from, to, found, carried = [] }) => {
    // Before the window only the carried alarms going on (their keys are stored).
    const goesOn = new Set(carried.map((c) => alarmKey(0, c.type, c.subject, c.begin)));
    const rows = found.filter(
      (a) => (a.begin >= from || goesOn.has(alarmKey(0, a.type, a.subject, a.begin))) && a.begin < to && !CLOCK_TYPES.has(a.type),
    );
    // Closing an open alarm must come before opening the next of its key (one open per key): the
    // statement inserts its rows in this order and checks each at once.
    return rows.sort((a, b) => (a.end === null ? 1 : 0) - (b.end === null ? 1 : 0) || a.begin - b.begin);
  });
  const all = items.flatMap((it, i) => rowsOf[i].map((a) => ({ vehicleId: it.vehicleId, a })));
  const windows = sql`unnest(${items.map((x) => x.vehicleId)}::int[], ${items.map((x) => boundText(x.from))}::timestamptz[], ${items.map((x) => boundText(x.to))}::timestamptz[]) AS w(vehicle_id, lo, hi)`;
  const carried = items.flatMap((x) => (x.carried ?? []).map((c) => c.id));
  const run = async (trx: Kysely<DB>) => {
    await moveUnhandled(trx, items, rowsOf, windows);
    // `also` rides along (its own rows, never these): one round trip less for the pass.
    // Before the found are stored: a handled alarm withdrawn no longer holds its key open.
    const gone = await sql<{
      relink: boolean;
      moved: Array<{ vehicle_id: number; type: string; subject: string; b: string; e: string | null }> | null;
    }>`
      WITH ${sql.join([
        ...alongside(also),
        sql`gone AS (
          SELECT a.id, a.handled, a.vehicle_id, a.type, a.subject, a.begin_time, a.end_time FROM alarm a, ${windows}
          WHERE a.vehicle_id = w.vehicle_id AND ((a.begin_time >= w.lo AND a.begin_time < w.hi) OR a.id = ANY(${carried}::int[])) AND a.state = 'current'
            AND a.type <> ALL (${[...CLOCK_TYPES]}::text[])
            AND NOT EXISTS (
              SELECT 1 FROM unnest(${all.map((r) => r.vehicleId)}::int[], ${all.map((r) => r.a.type)}::text[], ${all.map((r) => r.a.subject)}::text[], ${all.map((r) => iso(r.a.begin))}::timestamptz[]) AS k(vehicle_id, type, subject, begin_time)
              WHERE k.vehicle_id = a.vehicle_id AND k.type = a.type AND k.subject = a.subject AND k.begin_time = a.begin_time))`,
        sql`kept AS (UPDATE alarm a SET state = 'withdrawn' FROM gone g WHERE a.id = g.id AND g.handled RETURNING a.id)`,
        sql`dropped AS (DELETE FROM alarm a USING gone g WHERE a.id = g.id AND NOT g.handled)`,
      ])}
      SELECT EXISTS (SELECT 1 FROM kept)
          OR EXISTS (SELECT 1 FROM alarm o, ${windows} WHERE o.vehicle_id = w.vehicle_id AND o.state = 'withdrawn' AND o.begin_time >= w.lo AND o.begin_time < w.hi) AS relink,
        (SELECT json_agg(json_build_object('vehicle_id', g.vehicle_id, 'type', g.type, 'subject', g.subject, 'b', g.begin_time, 'e', g.end_time)) FROM gone g WHERE NOT g.handled) AS moved`.execute(
      trx,
    );
    if (!all.length && !gone.rows[0].relink) return items.map((): StoredAlarm[] => []);
    // An unhandled alarm the new data moved (its begin earlier or later, two merged) was announced
    // when it first appeared: its successor is the same event, not a fresh one to announce again.
    const moved = (gone.rows[0].moved ?? []).map((m) => ({
      key: `${m.vehicle_id}\u0000${m.type}\u0000${m.subject}`,
      begin: Date.parse(m.b),
      end: m.e === null ? Infinity : Date.parse(m.e),
    }));
    const sameEvent = (vehicleId: number, a: AlarmInterval) =>
      moved.some(
        (m) =>
          m.key === `${vehicleId}\u0000${a.type}\u0000${a.subject}` && a.begin <= m.end && m.begin <= (a.end === null ? Infinity : a.end),
      );
    const r = all.length
      ? await sql<{ id: number; vehicle_id: number; type: string; subject: string; begin_time: Date; inserted: boolean }>`
      INSERT INTO alarm ${ALARM_INSERT_COLUMNS} ${rowsToInsert(all.map((x) => ({ ...rowOf(x.vehicleId, x.a), firedAt: x.a.firedAt })))}
      ON CONFLICT (vehicle_id, type, subject, begin_time) DO UPDATE SET
        end_time = excluded.end_time, fired_at = excluded.fired_at, level = excluded.level, category = excluded.category,
        latitude = excluded.latitude, longitude = excluded.longitude, value = excluded.value, detail = excluded.detail,
        fence_id = excluded.fence_id, state = 'current', superseded_by = NULL
      -- A pass finds again every alarm of its window (from the open trip's start): unchanged ones
      -- are left as they are instead of rewritten (a new row version, its index entries) each pass.
      -- One withdrawn or superseded earlier and found again is current again, with its handling.
      WHERE (alarm.end_time, alarm.fired_at, alarm.level, alarm.category, alarm.latitude, alarm.longitude, alarm.value, alarm.detail, alarm.fence_id, alarm.state)
        IS DISTINCT FROM (excluded.end_time, excluded.fired_at, excluded.level, excluded.category, excluded.latitude, excluded.longitude, excluded.value, excluded.detail, excluded.fence_id, 'current')
      RETURNING id, vehicle_id, type, subject, begin_time, (xmax = 0) AS inserted`.execute(trx)
      : { rows: [] };
    // Successors of handled alarms carry the handling on: not fresh alarms to announce.
    const heirs = gone.rows[0].relink ? await supersede(trx, windows) : new Set<number>();
    const stored = new Map<string, { id: number; inserted: boolean }>();
    for (const row of r.rows)
      stored.set(alarmKey(row.vehicle_id, row.type, row.subject, new Date(row.begin_time).getTime()), {
        id: row.id,
        inserted: row.inserted,
      });
    return items.map((it, i) =>
      rowsOf[i].flatMap((a): StoredAlarm[] => {
        const row = stored.get(alarmKey(it.vehicleId, a.type, a.subject, a.begin));
        return row?.inserted && !heirs.has(row.id) && !sameEvent(it.vehicleId, a) ? [{ id: row.id, ...rowOf(it.vehicleId, a) }] : [];
      }),
    );
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * An unhandled alarm whose begin new data moved (a late report before it, the run it began in
 * seen longer) is the same event: its row takes the begin found, so it keeps its id (links,
 * notifications and the announcement made when it first appeared stay its), instead of being
 * deleted and raised again. Only where no row of the found key exists already (in any state), and
 * one row per found alarm: of two merged, the other goes as usual.
 */
async function moveUnhandled(
  trx: Kysely<DB>,
  items: readonly AlarmReplacement[],
  rowsOf: readonly AlarmInterval[][],
  windows: RawBuilder<unknown>,
): Promise<void> {
  if (!rowsOf.some((rows) => rows.length)) return;
  const carried = items.flatMap((x) => (x.carried ?? []).map((c) => c.id));
  const r = await sql<{
    id: number;
    vehicle_id: number;
    type: string;
    subject: string;
    begin: number;
    end: number | null;
    movable: boolean;
  }>`
    SELECT a.id, a.vehicle_id, a.type, a.subject, (extract(epoch FROM a.begin_time) * 1000)::float8 AS begin,
      (extract(epoch FROM a.end_time) * 1000)::float8 AS "end", (a.state = 'current' AND NOT a.handled) AS movable
    FROM alarm a, ${windows}
    WHERE a.vehicle_id = w.vehicle_id AND ((a.begin_time >= w.lo AND a.begin_time < w.hi) OR a.id = ANY(${carried}::int[]))
      AND a.type <> ALL (${[...CLOCK_TYPES]}::text[])`.execute(trx);
  if (!r.rows.length) return;
  const rows = r.rows.map((x) => ({
    ...x,
    begin: Math.round(Number(x.begin)),
    end: x.end === null ? Infinity : Math.round(Number(x.end)),
  }));
  const exact = new Set(rows.map((x) => alarmKey(x.vehicle_id, x.type, x.subject, x.begin)));
  const used = new Set<number>();
  const moves: Array<{ id: number; begin: number }> = [];
  items.forEach((it, i) => {
    for (const f of rowsOf[i]) {
      if (exact.has(alarmKey(it.vehicleId, f.type, f.subject, f.begin))) continue;
      const fEnd = f.end === null ? Infinity : f.end;
      const old = rows.find(
        (x) =>
          x.movable &&
          !used.has(x.id) &&
          x.vehicle_id === it.vehicleId &&
          x.type === f.type &&
          x.subject === f.subject &&
          !rowsOf[i].some((g) => g.type === x.type && g.subject === x.subject && g.begin === x.begin) &&
          f.begin <= x.end &&
          x.begin <= fEnd,
      );
      if (!old) continue;
      used.add(old.id);
      moves.push({ id: old.id, begin: f.begin });
    }
  });
  if (!moves.length) return;
  await sql`
    UPDATE alarm a SET begin_time = m.begin
    FROM unnest(${moves.map((m) => m.id)}::int[], ${moves.map((m) => iso(m.begin))}::timestamptz[]) AS m(id, begin)
    WHERE a.id = m.id`.execute(trx);
}

/**
 * The windows' withdrawn alarms that a current alarm of their vehicle, type and subject now
 * overlaps in time (touching counts, as merging does) become `superseded` by the earliest such
 * one; each successor not handled itself takes their handling over: the latest handler and time,
 * the notes in the order of the alarms they were written on. Answers the successors' ids.
 */
async function supersede(trx: Kysely<DB>, windows: RawBuilder<unknown>): Promise<Set<number>> {
  const r = await sql<{ id: number }>`
    WITH cand AS (
      SELECT o.id AS old_id, s.id AS new_id, s.handled AS heir_handled, o.handled_by, o.handled_at, o.note, o.begin_time AS old_begin,
             row_number() OVER (PARTITION BY o.id ORDER BY s.begin_time, s.id) AS nth
      FROM ${windows}
      JOIN alarm o ON o.vehicle_id = w.vehicle_id AND o.state = 'withdrawn' AND o.begin_time >= w.lo AND o.begin_time < w.hi
      JOIN alarm s ON s.vehicle_id = o.vehicle_id AND s.type = o.type AND s.subject = o.subject AND s.state = 'current'
        AND s.begin_time <= coalesce(o.end_time, 'infinity'::timestamptz) AND o.begin_time <= coalesce(s.end_time, 'infinity'::timestamptz)
    ),
    linked AS (UPDATE alarm o SET state = 'superseded', superseded_by = c.new_id FROM cand c WHERE o.id = c.old_id AND c.nth = 1),
    heirs AS (
      SELECT new_id, (array_agg(handled_by ORDER BY handled_at DESC))[1] AS handled_by, max(handled_at) AS handled_at,
             string_agg(note, chr(10) ORDER BY old_begin) AS note
      FROM cand WHERE NOT heir_handled GROUP BY new_id
    ),
    carried AS (UPDATE alarm s SET handled = true, handled_by = h.handled_by, handled_at = h.handled_at, note = h.note FROM heirs h WHERE s.id = h.new_id)
    SELECT DISTINCT new_id AS id FROM cand`.execute(trx);
  return new Set(r.rows.map((x) => x.id));
}

/**
 * Closes the vehicles' open clock-driven alarms once a report has come in after they began (times
 * compared to the millisecond: the alarm's begin came through JavaScript). A statement, for
 * replaceAlarmsMany to run with its own (it touches only clock-driven alarms, which that never does).
 */
export function closeClockAlarms(vehicleIds: readonly number[]): RawBuilder<unknown> {
  return sql`
    UPDATE alarm a SET end_time = GREATEST(a.begin_time, r.first)
    FROM (
      SELECT a2.id, (SELECT min(p.received_at) FROM position p
                     WHERE p.vehicle_id = a2.vehicle_id AND date_trunc('milliseconds', p.received_at) > a2.begin_time
                       AND p.device_time > a2.begin_time - interval '7 days') AS first
      FROM alarm a2 WHERE a2.vehicle_id = ANY(${[...vehicleIds]}::int[]) AND a2.end_time IS NULL AND a2.type = ANY (${[...CLOCK_TYPES]}::text[])
    ) r
    WHERE a.id = r.id AND r.first IS NOT NULL`;
}
