/**
 * The behaviour deriver: per vehicle and local day, the driving events (behaviour_day) and the
 * health index (health_day). It runs after trips, the ledger and the alarm engine in the same
 * transaction, and for every day the window touches it rebuilds the whole day from what is stored
 * (the day's positions and OBD records, its trips, its alarms), so its rows depend only on the
 * stored reports, never on the order they arrived in, and rebuilding again changes nothing. A live
 * window hands it the day's reports (`readsDays`: the pipeline reads and holds them from the
 * midnight), so a pass does not read the day from the table again, and what a pass walked of a day
 * is carried to the next (dayCarry.ts), so it does not walk the day again either.
 */

import { sql, type Insertable, type Kysely } from 'kysely';
import type { BehaviourDayTable, BehaviourEventTable, DB, HealthDayTable } from '../../platform/db/tables';
import {
  firstAfter,
  firstAtOrAfter,
  timeSlice,
  type DeriveObdRecord,
  type DerivePosition,
  type Deriver,
  type DeriveWindow,
} from '../deriver';
import { dayStart, localDaysOf, nextDay } from '../localDay';
import { loadObdRecordsMany, loadPositionsMany, rangesTable } from '../windowLoad';
import { replaceRows, rowSet, type Column } from '../../platform/db/replaceRows';
import { RULE_DEFAULTS } from '../alarms/detectors/policyRules';
import { anyLimiting, walkSpeedLimits, type FenceRule } from '../alarms/detectors/fences';
import { lookupsOf, type DerivePass } from '../settingsCache';
import { eventsOfTallies, marksOfTallies, speedingSeverity, tallyTrip, type EventMark, type TripSpan, type TripTally } from './events';
import { DayCarries, maxCoolantOf, tallyHealth, type DayBasis, type DayCarry } from './dayCarry';
import { healthIndex, type HealthFault } from './health';
import type { BehaviourThresholds } from './settings';

/** The report just after the day still closes the day's last interval. */
const TAIL_MS = 60_000;
/** Alarms that say nothing about the vehicle's condition. */
const NOT_HEALTH = ['Fault', 'FireOn', 'Insert'];
/**
 * Alarms the score weighs as events of their own: fatigue, and distraction from the terminal's
 * dangerous-driving-behaviour bit (JT/T 808-2019 alarm bit 3, which active-safety terminals raise
 * for phone use, smoking and looking away), and the driver monitor's (DSM) own fatigue, phone,
 * smoking and distraction alarms.
 */
const ALARM_EVENTS: Record<string, EventMark['kind']> = {
  Fatigue: 'fatigue',
  DangerWarning: 'distraction',
  DriverFatigue: 'fatigue',
  PhoneCall: 'distraction',
  Smoking: 'distraction',
  Distraction: 'distraction',
};

/** One vehicle-day of a pass: its window, the day and its bounds, and the settings in force. */
interface DayItem {
  w: DeriveWindow;
  day: string;
  lo: number;
  hi: number;
  speedLimit: number;
  thresholds: BehaviourThresholds;
  fences: readonly FenceRule[];
}

interface AlarmRow {
  ord: number;
  type: string;
  subject: string;
  level: string;
  begins_today: boolean;
  fired_today: boolean | null;
  detail: unknown;
  b: number;
  latitude: number | null;
  longitude: number | null;
}

/** The settings a vehicle-day's rows are computed with, which a carry must match. */
const basisOf = (x: DayItem): DayBasis => ({
  lo: x.lo,
  hi: x.hi,
  timeZone: x.w.vehicle.timeZone,
  speedLimit: x.speedLimit,
  thresholds: x.thresholds,
  fences: x.fences,
});

/** The two rows of one vehicle-day, from what is stored of it (pure once read), and what the next pass may carry on from. */
function dayRows(
  x: DayItem,
  positions: readonly DerivePosition[],
  records: readonly DeriveObdRecord[],
  trips: readonly TripSpan[],
  alarms: readonly AlarmRow[],
  carry: DayCarry | null,
): {
  behaviour: Insertable<BehaviourDayTable>;
  health: Insertable<HealthDayTable>;
  events: Array<Insertable<BehaviourEventTable>>;
  carry: DayCarry;
} | null {
  const { w, day, hi, lo, speedLimit } = x;
  // Each walk goes to the last report before the newest time the marks cover (what the next pass
  // carries on from: more reports of that second may come), then on to the end. Times are whole ms.
  const marked = (w.marked ?? Infinity) - 1;
  // Inside a fence with a speed limit, that limit counts (as it does for the OverSpeed alarm).
  let limitsCarry: DayCarry['limits'] = null;
  let limits: number | number[] = speedLimit;
  if (anyLimiting(x.fences)) {
    const settledCount = firstAfter(positions, marked);
    const settled = walkSpeedLimits(positions, x.fences, speedLimit, DayCarries.limitsFrom(carry, w, positions), settledCount);
    limitsCarry = { through: settledCount ? positions[settledCount - 1].time : -Infinity, walk: settled };
    limits = walkSpeedLimits(positions, x.fences, speedLimit, settled).limits;
  }
  const scope = { lo, hi, speedLimit: limits, timeZone: w.vehicle.timeZone, thresholds: x.thresholds };
  const carried = new Map<number, TripTally>();
  const tallies = trips.map((trip) => {
    const settled = tallyTrip(
      positions,
      { begin: trip.begin, end: Math.min(trip.end, marked) },
      scope,
      DayCarries.tripFrom(carry, trip, w),
    );
    carried.set(trip.begin, settled);
    return tallyTrip(positions, trip, scope, settled);
  });
  const events = eventsOfTallies(tallies);
  const fatigue = alarms.filter((a) => a.type === 'Fatigue' && a.fired_today).length;
  const faults: HealthFault[] = alarms
    .filter((a) => a.type === 'Fault')
    .map((a) => {
      const d = (typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as {
        code?: string;
        name?: string;
        resolvent?: string;
      } | null;
      return { code: d?.code ?? a.subject.replace(/^dtc:/, ''), level: a.level, name: d?.name ?? null, resolvent: d?.resolvent ?? null };
    });
  const alarmCount = alarms.filter((a) => a.begins_today && !NOT_HEALTH.includes(a.type)).length;
  // The reports of the day itself (the tail after it only closes its last interval).
  const today = positions.slice(0, firstAtOrAfter(positions, hi));
  if (!today.length && !trips.length) return null;
  const settledHealth = tallyHealth(today, records, DayCarries.healthFrom(carry, w), marked);
  const healthTally = tallyHealth(today, records, settledHealth);
  const minBatteryV = healthTally.minBatteryV;
  const maxCoolantC = maxCoolantOf(healthTally);
  const health = healthIndex({ faults, minBatteryV, maxCoolantC, alarmCount });
  const v = w.vehicle.vehicleId;
  // One row per (kind, begin): two alarms of a kind beginning together are one event of count 2, but
  // bit 3 in the report of a driver monitor's item is that item.
  const alarmMarks = new Map<string, EventMark>();
  const monitorAt = new Set(alarms.filter((a) => ALARM_EVENTS[a.type] === 'distraction' && a.type !== 'DangerWarning').map((a) => +a.b));
  for (const a of alarms) {
    const kind = ALARM_EVENTS[a.type];
    const at = Number(a.b);
    if (!kind || !a.fired_today || (a.type === 'DangerWarning' && monitorAt.has(at))) continue;
    const key = `${kind}:${at}`;
    const known = alarmMarks.get(key);
    if (known) known.count++;
    else
      alarmMarks.set(key, {
        kind,
        at,
        latitude: a.latitude ?? NaN,
        longitude: a.longitude ?? NaN,
        count: 1,
        durationS: 0,
        peakKmh: null,
        limitKmh: null,
        source: 'alarm',
      });
  }
  const marks = [...marksOfTallies(tallies), ...alarmMarks.values()];
  const eventRows = marks.map((m): Insertable<BehaviourEventTable> => ({
    vehicle_id: v,
    day,
    org_id: w.vehicle.orgId,
    kind: m.kind,
    at: new Date(m.at),
    latitude: Number.isFinite(m.latitude) ? m.latitude : null,
    longitude: Number.isFinite(m.longitude) ? m.longitude : null,
    count: m.count,
    duration_s: Math.round(m.durationS),
    severity: m.kind === 'speeding' && m.peakKmh !== null && m.limitKmh !== null ? speedingSeverity(m.peakKmh, m.limitKmh) : null,
    peak_kmh: m.peakKmh,
    limit_kmh: m.limitKmh,
    source: m.source,
  }));
  return {
    events: eventRows,
    behaviour: {
      vehicle_id: v,
      day,
      org_id: w.vehicle.orgId,
      harsh_acceleration: events.harshAcceleration,
      harsh_braking: events.harshBraking,
      sharp_turn: events.sharpTurn,
      speeding_s: events.speedingS,
      fatigue,
      night_s: events.nightS,
      sources: events.sources,
    },
    health: {
      vehicle_id: v,
      day,
      org_id: w.vehicle.orgId,
      health_index: health.index,
      band: health.band,
      faults: JSON.stringify(faults),
      min_battery_v: minBatteryV,
      max_coolant_c: maxCoolantC,
      alarm_count: alarmCount,
    },
    carry: { ...basisOf(x), trips: carried, health: settledHealth, limits: limitsCarry },
  };
}

/** behaviour_day's and health_day's columns as the deriver replaces them. */
export const BEHAVIOUR_COLUMNS: ReadonlyArray<Column<Insertable<BehaviourDayTable>>> = [
  ['vehicle_id', 'int'],
  ['day', 'date'],
  ['org_id', 'int'],
  ['harsh_acceleration', 'int'],
  ['harsh_braking', 'int'],
  ['sharp_turn', 'int'],
  ['speeding_s', 'int'],
  ['fatigue', 'int'],
  ['night_s', 'int'],
  ['sources', 'text[]'],
];

export const EVENT_COLUMNS: ReadonlyArray<Column<Insertable<BehaviourEventTable>>> = [
  ['vehicle_id', 'int'],
  ['day', 'date'],
  ['org_id', 'int'],
  ['kind', 'text'],
  ['at', 'timestamptz'],
  ['latitude', 'float8'],
  ['longitude', 'float8'],
  ['count', 'int'],
  ['duration_s', 'int'],
  ['severity', 'text'],
  ['peak_kmh', 'float8'],
  ['limit_kmh', 'float8'],
  ['source', 'text'],
];

export const HEALTH_COLUMNS: ReadonlyArray<Column<Insertable<HealthDayTable>>> = [
  ['vehicle_id', 'int'],
  ['day', 'date'],
  ['org_id', 'int'],
  ['health_index', 'int'],
  ['band', 'text'],
  ['faults', 'jsonb'],
  ['min_battery_v', 'float8'],
  ['max_coolant_c', 'float8'],
  ['alarm_count', 'int'],
];

/**
 * Rebuilds every day the windows' positions touch, for all the windows at once: the days' trips,
 * alarms and (for a day the pass did not read from its midnight) reports are one statement each
 * for the batch, then one statement replaces the rows of both tables.
 */
async function rebuildDays(
  trx: Kysely<DB>,
  windows: readonly DeriveWindow[],
  pass: DerivePass | undefined,
  carries: DayCarries,
): Promise<void> {
  const lookups = lookupsOf(trx, pass);
  const items: DayItem[] = [];
  for (const w of windows) {
    const tz = w.vehicle.timeZone;
    const days = localDaysOf(w.positions, tz);
    if (!days.size) continue;
    const { thresholds } = await lookups.safety(w.vehicle.orgPath);
    const speedLimit = (await lookups.policies(w.vehicle.orgPath)).get('OverSpeed')?.threshold ?? RULE_DEFAULTS.overSpeedKmh;
    const fences = await lookups.fences(w.vehicle.vehicleId, w.vehicle.orgPath);
    for (const day of [...days].sort())
      items.push({ w, day, lo: dayStart(day, tz), hi: dayStart(nextDay(day), tz), speedLimit, thresholds, fences });
  }
  if (!items.length) return;
  // The day as the pass read it: from its midnight (a live window), or inside the window itself (a
  // window from the vehicle's first report, or one reaching past the day's tail); else from the table.
  const heldOf = items.map((x) =>
    x.w.days && x.w.days.from <= x.lo ? x.w.days : x.w.from <= x.lo && x.w.to >= x.hi + TAIL_MS ? x.w : null,
  );
  const unheld = items.flatMap((x, i) => (heldOf[i] ? [] : [i]));
  const readPositions = await loadPositionsMany(
    trx,
    unheld.map((i) => ({ vehicleId: items[i].w.vehicle.vehicleId, from: items[i].lo, to: items[i].hi + TAIL_MS })),
  );
  const readRecords = await loadObdRecordsMany(
    trx,
    unheld.map((i) => ({ vehicleId: items[i].w.vehicle.vehicleId, from: items[i].lo, to: items[i].hi })),
  );
  const positionsOf: DerivePosition[][] = [];
  const recordsOf: DeriveObdRecord[][] = [];
  unheld.forEach((i, k) => {
    positionsOf[i] = readPositions[k];
    recordsOf[i] = readRecords[k];
  });
  items.forEach((x, i) => {
    const held = heldOf[i];
    if (!held) return;
    positionsOf[i] = timeSlice(held.positions, x.lo, x.hi + TAIL_MS);
    recordsOf[i] = timeSlice(held.obdRecords, x.lo, x.hi);
  });
  const spans = items.map((x) => ({ vehicleId: x.w.vehicle.vehicleId, from: x.lo, to: x.hi }));
  const trips = await sql<{ ord: number; b: number; e: number }>`
    SELECT w.ord, (extract(epoch FROM t.begin_time) * 1000)::float8 AS b, (extract(epoch FROM t.end_time) * 1000)::float8 AS e
    FROM ${rangesTable(spans)} JOIN trip t ON t.vehicle_id = w.vehicle_id AND t.begin_time < w.hi AND t.end_time >= w.lo
    ORDER BY w.ord, t.begin_time`.execute(trx);
  const alarms = await sql<AlarmRow>`
    SELECT w.ord, a.type, a.subject, a.level, a.detail, a.latitude, a.longitude,
           (extract(epoch FROM a.begin_time) * 1000)::float8 AS b, a.begin_time >= w.lo AS begins_today, a.fired_at >= w.lo AND a.fired_at < w.hi AS fired_today
    FROM ${rangesTable(spans)} JOIN alarm a ON a.vehicle_id = w.vehicle_id AND a.begin_time < w.hi AND (a.end_time IS NULL OR a.end_time >= w.lo) AND a.state = 'current'
    ORDER BY w.ord, a.begin_time, a.type, a.subject`.execute(trx);
  const tripsOf = items.map((): TripSpan[] => []);
  for (const t of trips.rows) tripsOf[Number(t.ord) - 1].push({ begin: Number(t.b), end: Number(t.e) });
  const alarmsOf = items.map((): AlarmRow[] => []);
  for (const a of alarms.rows) alarmsOf[Number(a.ord) - 1].push(a);
  const behaviour: Array<Insertable<BehaviourDayTable>> = [];
  const health: Array<Insertable<HealthDayTable>> = [];
  const events: Array<Insertable<BehaviourEventTable>> = [];
  // What each vehicle's days computed from the window's own reports, for the next pass to go on from.
  const kept = new Map<number, Map<string, DayCarry>>();
  items.forEach((x, i) => {
    const fromWindow = heldOf[i] !== null;
    const rows = dayRows(x, positionsOf[i], recordsOf[i], tripsOf[i], alarmsOf[i], carries.usable(x.w, x.day, basisOf(x), fromWindow));
    const vehicleId = x.w.vehicle.vehicleId;
    if (!kept.has(vehicleId)) kept.set(vehicleId, new Map());
    if (rows && fromWindow) kept.get(vehicleId)!.set(x.day, rows.carry);
    if (!rows) return;
    behaviour.push(rows.behaviour);
    health.push(rows.health);
    events.push(...rows.events);
  });
  // A key met twice (two windows of a vehicle in one batch) would make the upsert fail: the first stands.
  const seen = new Set<string>();
  const uniqueEvents = events.filter((e) => {
    const key = `${e.vehicle_id}:${e.kind}:${(e.at as Date).getTime()}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  for (const [vehicleId, days] of kept) {
    if (days.size) carries.keep(vehicleId, days);
    else carries.forget(vehicleId);
  }
  // The days rebuilt own their rows: one statement replaces both tables' (a day unchanged is not rewritten).
  const days = sql`unnest(${items.map((x) => x.w.vehicle.vehicleId)}::int[], ${items.map((x) => x.day)}::date[]) AS w(vehicle_id, day)`;
  const owned = sql`t.vehicle_id = w.vehicle_id AND t.day = w.day`;
  await replaceRows(
    trx,
    days,
    [
      rowSet({ table: 'behaviour_day', columns: BEHAVIOUR_COLUMNS, key: ['vehicle_id', 'day'], rows: behaviour, owned }),
      rowSet({ table: 'health_day', columns: HEALTH_COLUMNS, key: ['vehicle_id', 'day'], rows: health, owned }),
      // The day's events; their reviews live apart (behaviour_review) and are never touched here.
      rowSet({ table: 'behaviour_event', columns: EVENT_COLUMNS, key: ['vehicle_id', 'kind', 'at'], rows: uniqueEvents, owned }),
    ],
    [],
    pass?.hold,
  );
}

/** A behaviour deriver with its own carries: one per pipeline. */
export function behaviourDeriver(): Deriver {
  const carries = new DayCarries();
  return {
    name: 'behaviour',
    readsDays: true,
    rebuild: (trx, w, pass) => rebuildDays(trx, [w], pass, carries),
    rebuildMany: (trx, windows, pass) => rebuildDays(trx, windows, pass, carries),
  };
}
