/**
 * The trips deriver: trips, the stops between them and the fuel events of a window, rebuilt as a
 * delete and an insert would (replaceRows.ts: one statement, unchanged rows left alone), from one
 * walk over the window (tripWalk.ts) that a live pass goes on from the last (tripCarry.ts). Its
 * extend() widens a dirty range to whole trips: back to the first position of the trip before the
 * one the range starts in (every decision from a trip's first position on depends only on
 * positions at or after it and the one before it; the trip before brings the whole stop the trip
 * started from, whose standing levels its fuel is read from: metrics.ts), or to the beginning when
 * there is none, forward to the first trip that begins after a stop that begins after the range
 * (nothing before that stop can change it).
 */

import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB, FuelEventTable, TripStopTable, TripTable } from '../../platform/db/tables';
import { closedTrip, tripTime } from '../../platform/closedTrip';
import type { ClosedTrip } from '../../platform/telemetry';
import { type Deriver, type DeriveWindow, type TimeRange, type VehicleRange } from '../deriver';
import type { DerivePass } from '../settingsCache';
import { rangesTable } from '../windowLoad';
import { replaceRows, rowSet, type Column } from '../../platform/db/replaceRows';
import type { Segment } from './segment';
import { TripCarries } from './tripCarry';
import { TripChanges } from './tripChanges';
import { TripWalk, type TripsFound } from './tripWalk';

const ms = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());

export interface WindowRows {
  segments: Segment[];
  trips: Array<Insertable<TripTable>>;
  stops: Array<Insertable<TripStopTable>>;
  fuelEvents: Array<Insertable<FuelEventTable>>;
}

/** The rows of what a window's walk found (pure). */
export function tripRows(w: DeriveWindow, found: TripsFound): WindowRows {
  const { positions, vehicle } = w;
  const vehicleId = vehicle.vehicleId;
  const rows: WindowRows = { segments: found.segments, trips: [], stops: [], fuelEvents: [] };
  for (const { segment: s, metrics: m } of found.trips) {
    rows.trips.push({
      vehicle_id: vehicleId,
      begin_time: new Date(s.begin),
      end_time: new Date(s.end),
      duration_s: Math.round((s.end - s.begin) / 1000),
      distance_km: m.distanceKm,
      distance_source: m.distanceSource,
      fuel_l: m.fuelL,
      idle_s: m.idleS,
      max_speed: m.maxSpeed,
      avg_speed: m.avgSpeed,
      start_latitude: m.start.latitude,
      start_longitude: m.start.longitude,
      end_latitude: m.stop.latitude,
      end_longitude: m.stop.longitude,
      open: s.open,
    });
  }
  for (const s of found.segments) {
    if (s.kind !== 'stop') continue;
    const at = positions[s.first];
    rows.stops.push({
      vehicle_id: vehicleId,
      begin_time: new Date(s.begin),
      end_time: new Date(s.end),
      duration_s: Math.round((s.end - s.begin) / 1000),
      latitude: at.latitude,
      longitude: at.longitude,
      open: s.open,
    });
  }
  rows.fuelEvents = found.fuelEvents.map((e) => ({
    vehicle_id: vehicleId,
    kind: e.kind,
    time: new Date(e.time),
    amount_l: e.amountL,
    level_before_l: e.levelBeforeL,
    level_after_l: e.levelAfterL,
    latitude: e.latitude,
    longitude: e.longitude,
    detected_at: e.detectedAt === null ? null : new Date(e.detectedAt),
  }));
  return rows;
}

/** The rows of a window, walked from its first position (pure). */
export function deriveTrips(w: DeriveWindow): WindowRows {
  const walk = TripWalk.start(w.positions, w.before, w.vehicle.settings.stopMinutes, w.vehicle.tankCapacityL);
  walk.walkTo(w.positions.length);
  return tripRows(w, walk.result(w.after, w.obdRecords));
}

const TRIP_COLUMNS: ReadonlyArray<Column<Insertable<TripTable>>> = [
  ['vehicle_id', 'int'],
  ['begin_time', 'timestamptz'],
  ['end_time', 'timestamptz'],
  ['duration_s', 'int'],
  ['distance_km', 'float8'],
  ['distance_source', 'text'],
  ['fuel_l', 'float8'],
  ['idle_s', 'int'],
  ['max_speed', 'real'],
  ['avg_speed', 'real'],
  ['start_latitude', 'float8'],
  ['start_longitude', 'float8'],
  ['end_latitude', 'float8'],
  ['end_longitude', 'float8'],
  ['open', 'boolean'],
];

/** trip_stop's columns as the trips deriver replaces them. */
export const STOP_COLUMNS: ReadonlyArray<Column<Insertable<TripStopTable>>> = [
  ['vehicle_id', 'int'],
  ['begin_time', 'timestamptz'],
  ['end_time', 'timestamptz'],
  ['duration_s', 'int'],
  ['latitude', 'float8'],
  ['longitude', 'float8'],
  ['open', 'boolean'],
];

const FUEL_EVENT_COLUMNS: ReadonlyArray<Column<Insertable<FuelEventTable>>> = [
  ['vehicle_id', 'int'],
  ['kind', 'text'],
  ['time', 'timestamptz'],
  ['amount_l', 'float8'],
  ['level_before_l', 'float8'],
  ['level_after_l', 'float8'],
  ['latitude', 'float8'],
  ['longitude', 'float8'],
  ['detected_at', 'timestamptz'],
];

/**
 * The rows a window owns. A window that begins at a trip with reports before it (extend() went back
 * to the trip before the one its range starts in) holds that trip as context only: its stop after it
 * lies before the range, so nothing of it can change, and the window lacks the stop it started from,
 * whose standing levels its fuel is read from (metrics.ts). Its stored row stands; the window owns
 * what begins after it.
 */
const ownRows = (w: DeriveWindow, rows: WindowRows): WindowRows => (contextTrip(w, rows) ? { ...rows, trips: rows.trips.slice(1) } : rows);

const contextTrip = (w: DeriveWindow, rows: WindowRows) =>
  w.before !== null && Number.isFinite(w.from) && rows.trips.length > 0 && ms(rows.trips[0].begin_time ?? null) === w.from;

/** The windows' owned ranges: from just after a context trip's begin (ownRows), where nothing else begins. */
const ownedRanges = (windows: readonly DeriveWindow[], rows: readonly WindowRows[]) =>
  windows.map((w, i) => ({ vehicleId: w.vehicle.vehicleId, from: w.from + (contextTrip(w, rows[i]) ? 1 : 0), to: w.to }));

export interface TripDeriverOptions {
  /** Told after a pass commits of the closed trips it wrote new or changed (all of them when it cannot tell). */
  onClosed?: (trips: ClosedTrip[]) => void;
}

/** The trips deriver, with its own carries (tripCarry.ts): one per pipeline. */
export function tripDeriver(opts: TripDeriverOptions = {}): Deriver {
  const carries = new TripCarries();
  const changes = new TripChanges();
  const rebuild = async (trx: Kysely<DB>, windows: readonly DeriveWindow[], pass?: DerivePass): Promise<number[]> => {
    const { rows, changedFrom } = await rebuildTrips(trx, windows, carries, changes);
    const onClosed = opts.onClosed;
    if (onClosed && pass) {
      const closed = rows.flatMap((r, i) =>
        r.trips.filter((t) => t.open === false && tripTime(t.begin_time) >= changedFrom[i]).map(closedTrip),
      );
      if (closed.length) pass.afterCommit(() => onClosed(closed));
    }
    return changedFrom;
  };
  return {
    name: 'trips',
    // Back to the trip before, for this walk alone: what it changed is answered (tripChanges.ts).
    widensForItself: true,
    extend: async (trx, vehicleId, range) => (await extendTrips(trx, [{ vehicleId, ...range }]))[0],
    extendMany: (trx, ranges) => extendTrips(trx, ranges),
    rebuild: async (trx, w, pass) => void (await rebuild(trx, [w], pass)),
    rebuildMany: rebuild,
  };
}

/** Widens each range back to the trip before the one it starts in, and on to the first trip after a stop after it. */
async function extendTrips(trx: Kysely<DB>, ranges: ReadonlyArray<VehicleRange>): Promise<TimeRange[]> {
  const r = await sql<{ from_time: Date | null; to_time: Date | null }>`
    SELECT
      CASE WHEN w.lo = '-infinity' THEN NULL ELSE (SELECT max(begin_time) FROM trip WHERE vehicle_id = w.vehicle_id AND begin_time < (
        SELECT max(begin_time) FROM trip WHERE vehicle_id = w.vehicle_id AND begin_time <= w.lo)) END AS from_time,
      CASE WHEN w.hi = 'infinity' THEN NULL ELSE (SELECT min(begin_time) FROM trip WHERE vehicle_id = w.vehicle_id AND begin_time > (
        SELECT min(begin_time) FROM trip_stop WHERE vehicle_id = w.vehicle_id AND begin_time >= w.hi)) END AS to_time
    FROM ${rangesTable(ranges)} ORDER BY w.ord`.execute(trx);
  return r.rows.map((row, i) => ({
    from: ms(row.from_time) ?? -Infinity,
    to: Number.isFinite(ranges[i].to) ? (ms(row.to_time) ?? Infinity) : Infinity,
  }));
}

/** Replaces the windows' rows; answers the rows and, per window, the earliest trip or fuel event it changed (tripChanges.ts). */
async function rebuildTrips(
  trx: Kysely<DB>,
  windows: readonly DeriveWindow[],
  carries: TripCarries,
  changes: TripChanges,
): Promise<{ rows: WindowRows[]; changedFrom: number[] }> {
  const raw = windows.map((w) => tripRows(w, carries.walk(w)));
  const all = windows.map((w, i) => ownRows(w, raw[i]));
  const owned = ownedRanges(windows, raw);
  // From where the window owns rows: a context trip the last pass wrote is not this one's to have changed.
  const changedFrom = windows.map((w, i) =>
    changes.changedFrom(w.vehicle.vehicleId, owned[i].from, all[i], w.continues === true, w.marked !== undefined),
  );
  const inWindow = (column: string) => sql`t.vehicle_id = w.vehicle_id AND t.${sql.id(column)} >= w.lo AND t.${sql.id(column)} < w.hi`;
  await replaceRows(trx, rangesTable(owned), [
    rowSet({
      table: 'trip',
      columns: TRIP_COLUMNS,
      key: ['vehicle_id', 'begin_time'],
      rows: all.flatMap((r) => r.trips),
      owned: inWindow('begin_time'),
    }),
    rowSet({
      table: 'trip_stop',
      columns: STOP_COLUMNS,
      key: ['vehicle_id', 'begin_time'],
      rows: all.flatMap((r) => r.stops),
      owned: inWindow('begin_time'),
    }),
    rowSet({
      table: 'fuel_event',
      columns: FUEL_EVENT_COLUMNS,
      key: ['vehicle_id', 'time', 'kind'],
      rows: all.flatMap((r) => r.fuelEvents),
      owned: inWindow('time'),
    }),
  ]);
  return { rows: all, changedFrom };
}
