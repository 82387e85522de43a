/**
 * Open alarms carried into a window instead of reached back to. A pass derives from its window's
 * start on; an alarm of the vehicle that began before that start and is still open there (or ends
 * inside the window) is taken as it is stored, and its rule goes on from it: the alarm word's bit
 * stays set, the trouble code stays listed, the condition run (idling, standing, speeding, off the
 * route) goes on from its first report. Everything before the window's start is unchanged since
 * the pass that stored the alarm (a window starts before every report it was marked for), so going
 * on from the stored alarm finds what reading back to its begin would, and a pass costs the same
 * whether the alarm opened a minute or a month ago.
 *
 * Carried are the alarms whose every source is a rule that can go on from the stored row alone:
 * the alarm word's bits, trouble codes, the condition runs of RUN_SOURCES, keyed by type and
 * subject (one alarm of a key is open at a time): the policy's Idle, StopLongTime, OverSpeed and
 * Low (battery readings), a fence's speed limit, Skewing off a task's route, and the clock's stops;
 * and those whose rule goes on from the stored row and a few reports read by key (WALK_TYPES):
 * Fatigue from the drive's first report, the last moving report before the window and the one
 * after it (where a rest under way at the window's start began), Trail from its anchor and the
 * tow's reports since its last moving one (ignitionReach.ts). Anything else open (none raised
 * today) makes the window reach back to its begin (store.ts windowBounds); a FuelDrain is an
 * instant, never open, so it never does.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DerivePosition } from '../deriver';
import { POSITION_COLUMNS, toPosition, type PositionRow } from '../windowLoad';
import { CLOCK_SOURCE, CLOCK_TYPES, sourcesOf, type AlarmInterval, type AlarmType } from './types';
import { MOVING_KMH } from './detectors/motionRules';

/**
 * The condition runs (detectors/runs.ts conditionRuns) that go on from their first report: per
 * type, the source whose run it is (a LIKE pattern), or null for a type raised without sources,
 * whose subject names its run.
 */
const RUN_SOURCES: ReadonlyArray<readonly [AlarmType, string | null]> = [
  ['Idle', 'policy'],
  ['StopLongTime', 'policy'],
  // The clock's stop is the policy's standing run that no report has shown long enough yet (stopClock.ts).
  ['StopLongTime', CLOCK_SOURCE],
  ['OverSpeed', 'policy'],
  // A fence's speed limit: its walk goes on settled inside (detectors/fences.ts).
  ['OverSpeed', 'fence:%'],
  ['Low', 'policy'],
  // Off a task's route: the subject is the task (detectors/aiRules.ts skewing).
  ['Skewing', null],
];

/** Types with a condition run that goes on from its first report. */
export const RUN_TYPES: ReadonlySet<AlarmType> = new Set(RUN_SOURCES.map(([type]) => type));

/** A carried run's key: its type and subject (one alarm of a key is open at a time). */
export const runKey = (type: AlarmType, subject: string) => `${type}\u0000${subject}`;

/** Types whose policy rule walks on from the stored alarm and a few reports read by key (deriver.ts runPrefixes). */
export const WALK_TYPES: ReadonlySet<AlarmType> = new Set<AlarmType>(['Fatigue', 'Trail']);

/**
 * Whether stored alarm `a` (a SQL alias) is carried rather than reached back to: the one definition,
 * used where windows are widened and where the carried alarms are read.
 */
export function carryable(a: string): RawBuilder<boolean> {
  const t = sql.ref(`${a}.type`);
  const d = sql.ref(`${a}.detail`);
  // The walks' rules are the policy's.
  const sourced = [...RUN_SOURCES.filter(([, source]) => source !== null), ...[...WALK_TYPES].map((type) => [type, 'policy'] as const)];
  const sourceless = RUN_SOURCES.flatMap(([type, source]) => (source === null ? [type] : []));
  // Never NULL (a detail without sources): an alarm not carried is reached back to.
  return sql<boolean>`coalesce(${t} = 'Fault' OR ${t} = ANY(${sourceless}::text[]) OR (
      jsonb_typeof(${d} -> 'sources') = 'array' AND jsonb_array_length(${d} -> 'sources') > 0
      AND NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements_text(${d} -> 'sources') AS src(s)
        WHERE src.s NOT LIKE 'bit:%' AND NOT EXISTS (
          SELECT 1 FROM unnest(${sourced.map(([type]) => type)}::text[], ${sourced.map(([, source]) => source)}::text[]) AS r(type, source)
          WHERE r.type = ${t} AND src.s LIKE r.source))), false)`;
}

/** A stored alarm going on into a window: as an interval, with its row's id and, for a run, its first report. */
export interface CarriedAlarm {
  id: number;
  interval: AlarmInterval;
  /** The run's first report (RUN_TYPES; Fatigue: the drive's), or null. */
  first: DerivePosition | null;
  /** Fatigue: the last moving report before the window and the report after it, when before the window. */
  walk: DerivePosition[];
}

interface CarriedRow {
  ord: number;
  id: number;
  type: AlarmType;
  subject: string;
  begin: number;
  end: number | null;
  fired: number;
  level: string;
  latitude: number | null;
  longitude: number | null;
  value: number | null;
  detail: Record<string, unknown> | null;
  /** The run's first report, as the window readers read positions. */
  first: PositionRow | null;
  moved: PositionRow | null;
  after: PositionRow | null;
}

/**
 * Per window (in the order given), the vehicle's carried alarms open at its start: current,
 * report-driven, begun before `from`, not ended before it. One statement for all the windows.
 */
export async function carriedAlarms(
  db: Kysely<DB>,
  windows: ReadonlyArray<{ vehicleId: number; from: number }>,
): Promise<CarriedAlarm[][]> {
  const out = windows.map((): CarriedAlarm[] => []);
  const asked = windows.flatMap((w, i) => (Number.isFinite(w.from) ? [i] : []));
  if (!asked.length) return out;
  const r = await sql<CarriedRow>`
    SELECT w.ord, a.id, a.type, a.subject, (extract(epoch FROM a.begin_time) * 1000)::float8 AS begin,
      (extract(epoch FROM a.end_time) * 1000)::float8 AS "end", (extract(epoch FROM a.fired_at) * 1000)::float8 AS fired,
      a.level, a.latitude, a.longitude, a.value, a.detail, CASE WHEN p.ms IS NULL THEN NULL ELSE to_jsonb(p) END AS first,
      CASE WHEN m.ms IS NULL THEN NULL ELSE to_jsonb(m) - 'at' END AS moved, CASE WHEN r.ms IS NULL THEN NULL ELSE to_jsonb(r) END AS after
    FROM unnest(${asked.map((i) => windows[i].vehicleId)}::int[], ${asked.map((i) => new Date(windows[i].from).toISOString())}::timestamptz[])
      WITH ORDINALITY AS w(vehicle_id, lo, ord)
    JOIN alarm a ON a.vehicle_id = w.vehicle_id AND a.begin_time < w.lo AND (a.end_time IS NULL OR a.end_time >= w.lo)
      AND a.state = 'current' AND a.type <> ALL (${[...CLOCK_TYPES]}::text[]) AND ${carryable('a')}
    LEFT JOIN LATERAL (
      SELECT ${POSITION_COLUMNS} FROM position WHERE vehicle_id = a.vehicle_id AND device_time = a.begin_time AND a.type = ANY(${[...RUN_TYPES, 'Fatigue']}::text[])
      ORDER BY terminal_id LIMIT 1
    ) p ON true
    -- Fatigue: where the driving was last seen before the window, and the report after (a rest under way began there).
    LEFT JOIN LATERAL (
      SELECT ${POSITION_COLUMNS}, device_time AS at FROM position
      WHERE vehicle_id = a.vehicle_id AND a.type = 'Fatigue' AND device_time >= a.begin_time AND device_time < w.lo AND speed >= ${MOVING_KMH}
      ORDER BY device_time DESC, terminal_id DESC LIMIT 1
    ) m ON true
    LEFT JOIN LATERAL (
      SELECT ${POSITION_COLUMNS} FROM position WHERE vehicle_id = a.vehicle_id AND device_time > m.at AND device_time < w.lo
      ORDER BY device_time, terminal_id LIMIT 1
    ) r ON m.at IS NOT NULL
    ORDER BY w.ord, a.begin_time, a.id`.execute(db);
  for (const x of r.rows) {
    const first = x.first === null ? null : toPosition(x.first);
    const detail = typeof x.detail === 'string' ? (JSON.parse(x.detail) as Record<string, unknown>) : x.detail;
    out[asked[Number(x.ord) - 1]].push({
      id: x.id,
      first,
      walk: [x.moved, x.after].flatMap((p) => (p === null ? [] : [toPosition(p)])),
      interval: {
        type: x.type,
        subject: x.subject,
        begin: Math.round(Number(x.begin)),
        end: x.end === null ? null : Math.round(Number(x.end)),
        firedAt: Math.round(Number(x.fired)),
        latitude: x.latitude,
        longitude: x.longitude,
        value: x.value,
        level: x.level as AlarmInterval['level'],
        ...(detail ? { detail } : {}),
      },
    });
  }
  return out;
}

/** The alarm word's bits a carried alarm came from (`bit:N` sources). */
export function carriedBits(a: AlarmInterval): number[] {
  const sources = sourcesOf(a);
  return sources.flatMap((s) => (typeof s === 'string' && s.startsWith('bit:') ? [Number(s.slice(4))] : []));
}
