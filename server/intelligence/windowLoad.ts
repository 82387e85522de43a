/**
 * Reads one vehicle's window for the derivers: the vehicle and its settings, its positions and
 * OBD records in device-time order, and the positions just outside the window.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import {
  boundOf,
  boundText,
  OBD_DTC_SUBTYPE,
  type DeriveObdRecord,
  type DerivePosition,
  type DeriveWindow,
  type TimeRange,
  type TripSettings,
  type VehicleContext,
} from './samples';
import { pathUnder } from '../platform/scope';

export const DEFAULT_SETTINGS: TripSettings = { stopMinutes: 5, region: null };

/** A position as read: the device time in epoch ms (a float), the two figures under their column names. */
export type PositionRow = Omit<DerivePosition, 'time' | 'mileageKm' | 'fuelL'> & {
  ms: number;
  mileage_km: number | null;
  fuel_l: number | null;
};

export const POSITION_COLUMNS = sql`(extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, speed, direction, acc,
  alarm, status, mileage_km, fuel_l, blind, extras`;

export const toPosition = (r: PositionRow): DerivePosition => ({
  time: Math.round(Number(r.ms)),
  latitude: r.latitude,
  longitude: r.longitude,
  speed: Number(r.speed),
  direction: r.direction,
  acc: r.acc,
  alarm: Number(r.alarm),
  status: Number(r.status),
  mileageKm: r.mileage_km,
  fuelL: r.fuel_l,
  blind: r.blind,
  extras: r.extras,
});

export interface ContextRow {
  id: number;
  org_id: number;
  path: string;
  licence: string;
  tank_capacity: number | null;
  fuel_type_id: number | null;
  stop_minutes: number | null;
  region: string | null;
}

const contextOf = (v: ContextRow, timeZone: string): VehicleContext => ({
  vehicleId: v.id,
  orgId: v.org_id,
  orgPath: v.path,
  licence: v.licence,
  tankCapacityL: v.tank_capacity,
  fuelTypeId: v.fuel_type_id,
  settings: { stopMinutes: v.stop_minutes ?? DEFAULT_SETTINGS.stopMinutes, region: v.region ?? DEFAULT_SETTINGS.region },
  timeZone,
});

/** The rows of the vehicles in `ids` (an int[]) with their organisations and the trip settings of the nearest organisation that has some; vehicles gone are absent. */
export const vehicleContextRows = (ids: RawBuilder<unknown>) => sql`
    SELECT v.id, v.org_id, o.path, v.licence, v.tank_capacity, v.fuel_type_id, s.stop_minutes, s.region
    FROM vehicle v JOIN organisation o ON o.id = v.org_id
    LEFT JOIN LATERAL (
      SELECT ts.stop_minutes, ts.region FROM trip_setting ts JOIN organisation a ON a.id = ts.org_id
      WHERE ${pathUnder('o.path', sql.ref('a.path'))} ORDER BY length(a.path) DESC LIMIT 1
    ) s ON true
    WHERE v.id = ANY(${ids})`;

export const contextsOf = (rows: readonly ContextRow[], timeZone: string): Map<number, VehicleContext> =>
  new Map(rows.map((v) => [v.id, contextOf(v, timeZone)]));

/** The vehicles with their organisations and trip settings (vehicleContextRows); vehicles gone are absent. */
export async function loadVehicleContexts(
  db: Kysely<DB>,
  vehicleIds: readonly number[],
  timeZone: string,
): Promise<Map<number, VehicleContext>> {
  if (!vehicleIds.length) return new Map();
  return contextsOf((await sql<ContextRow>`${vehicleContextRows(sql`${[...vehicleIds]}::int[]`)}`.execute(db)).rows, timeZone);
}

/** The vehicle with its organisation and the trip settings of the nearest organisation that has some; null when it is gone. */
export async function loadVehicleContext(db: Kysely<DB>, vehicleId: number, timeZone: string): Promise<VehicleContext | null> {
  return (await loadVehicleContexts(db, [vehicleId], timeZone)).get(vehicleId) ?? null;
}

const rangeCondition = ({ from, to }: TimeRange) => {
  const lo = boundOf(from);
  const hi = boundOf(to);
  return sql`${lo ? sql`AND device_time >= ${lo}` : sql``} ${hi ? sql`AND device_time < ${hi}` : sql``}`;
};

export async function loadPositions(db: Kysely<DB>, vehicleId: number, range: TimeRange): Promise<DerivePosition[]> {
  const r = await sql<PositionRow>`
    SELECT ${POSITION_COLUMNS} FROM position
    WHERE vehicle_id = ${vehicleId} ${rangeCondition(range)}
    ORDER BY device_time, terminal_id`.execute(db);
  return r.rows.map(toPosition);
}

/** An OBD record row as the window readers select it (OBD_COLUMNS over `obd_record o`). */
export interface ObdRow {
  ms: number;
  subtype: number;
  latitude: number | null;
  longitude: number | null;
  readings: Record<string, unknown> | null;
  detail: Record<string, unknown> | null;
  dtc_count: number;
  codes: string[] | null;
}

/**
 * What the readers select of `obd_record o`: a trouble-code record's codes with it, so the Fault
 * rule reads them from the window (held between passes) instead of querying for every window.
 */
export const OBD_COLUMNS = sql`(extract(epoch FROM o.device_time) * 1000)::float8 AS ms, o.subtype, o.latitude, o.longitude, o.readings, o.detail, o.dtc_count,
  CASE WHEN o.subtype = ${OBD_DTC_SUBTYPE} THEN (SELECT array_agg(d.code ORDER BY d.seq) FROM obd_dtc d WHERE d.terminal_id = o.terminal_id AND d.device_time = o.device_time) END AS codes`;

export const toObdRecord = (x: ObdRow): DeriveObdRecord => ({
  time: Math.round(Number(x.ms)),
  subtype: x.subtype,
  latitude: x.latitude,
  longitude: x.longitude,
  readings: x.readings,
  detail: x.detail,
  dtcCount: x.dtc_count,
  ...(x.subtype === OBD_DTC_SUBTYPE ? { codes: x.codes ?? [] } : {}),
});

export async function loadObdRecords(db: Kysely<DB>, vehicleId: number, range: TimeRange): Promise<DeriveObdRecord[]> {
  const r = await sql<ObdRow>`
    SELECT ${OBD_COLUMNS} FROM obd_record o WHERE o.vehicle_id = ${vehicleId} ${rangeCondition(range)}
    ORDER BY o.device_time, o.subtype`.execute(db);
  return r.rows.map(toObdRecord);
}

export async function loadWindow(db: Kysely<DB>, vehicle: VehicleContext, range: TimeRange): Promise<DeriveWindow> {
  return (await loadWindows(db, [{ vehicle, range }]))[0];
}

/** `unnest(...) WITH ORDINALITY AS w(vehicle_id, lo, hi, ord)` of windows or ranges (±infinity for unbounded), for set-wise statements. */
export const rangesTable = (items: ReadonlyArray<{ vehicleId: number; from: number; to: number }>) =>
  sql`unnest(${items.map((i) => i.vehicleId)}::int[], ${items.map((i) => boundText(i.from))}::timestamptz[], ${items.map((i) => boundText(i.to))}::timestamptz[]) WITH ORDINALITY AS w(vehicle_id, lo, hi, ord)`;

type Ranges = ReadonlyArray<{ vehicleId: number; from: number; to: number }>;

/*
 * Each range's rows by its own index scan (vehicle_id, device_time): a LATERAL subquery with its
 * own ORDER BY, which PostgreSQL cannot flatten into a join. Flattened, the planner guessed many
 * rows per range and hashed the ranges against a sequential scan of the whole month partition:
 * 82,000 rows read for 288 under the alarm bench, a cost that grows with every day of the month.
 */

/** `w` (rangesTable) and `p`, each range's positions: POSITION_COLUMNS and terminal_id. */
export const positionsOfRanges = (ranges: Ranges) => sql`${rangesTable(ranges)} CROSS JOIN LATERAL (
    SELECT ${POSITION_COLUMNS}, terminal_id FROM position
    WHERE vehicle_id = w.vehicle_id AND device_time >= w.lo AND device_time < w.hi ORDER BY device_time, terminal_id
  ) p`;

/** `w` (rangesTable) and `o`, each range's OBD records: OBD_COLUMNS. */
const obdRecordsOfRanges = (ranges: Ranges) => sql`${rangesTable(ranges)} CROSS JOIN LATERAL (
    SELECT ${OBD_COLUMNS} FROM obd_record o
    WHERE o.vehicle_id = w.vehicle_id AND o.device_time >= w.lo AND o.device_time < w.hi ORDER BY o.device_time, o.subtype
  ) o`;

/** Rows of several vehicles, grouped by vehicle (each group keeps the query's order). */
function byVehicle<R extends { vehicle_id: number }, T>(rows: readonly R[], map: (r: R) => T): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    let list = out.get(r.vehicle_id);
    if (!list) out.set(r.vehicle_id, (list = []));
    list.push(map(r));
  }
  return out;
}

/**
 * loadWindow for several vehicles at once: four statements for all of them instead of four per
 * vehicle. Answers the windows in the order of `items`.
 */
export async function loadWindows(
  db: Kysely<DB>,
  items: ReadonlyArray<{ vehicle: VehicleContext; range: TimeRange }>,
): Promise<DeriveWindow[]> {
  if (!items.length) return [];
  const ranges = items.map((i) => ({ vehicleId: i.vehicle.vehicleId, from: i.range.from, to: i.range.to }));
  // The windows' positions and their neighbours in one statement (one round trip less per pass).
  const positions = await sql<PositionRow & { vehicle_id: number; side: 'in' | 'before' | 'after' }>`
    SELECT w.vehicle_id, 'in' AS side, p.* FROM ${positionsOfRanges(ranges)}
    UNION ALL
    SELECT w.vehicle_id, 'before' AS side, b.* FROM ${rangesTable(ranges)}
    JOIN LATERAL (
      SELECT ${POSITION_COLUMNS}, terminal_id FROM position WHERE vehicle_id = w.vehicle_id AND device_time < w.lo ORDER BY device_time DESC, terminal_id DESC LIMIT 1
    ) b ON true
    UNION ALL
    SELECT w.vehicle_id, 'after' AS side, a.* FROM ${rangesTable(ranges)}
    JOIN LATERAL (
      SELECT ${POSITION_COLUMNS}, terminal_id FROM position WHERE vehicle_id = w.vehicle_id AND device_time >= w.hi ORDER BY device_time ASC, terminal_id ASC LIMIT 1
    ) a ON true
    ORDER BY vehicle_id, ms, terminal_id`.execute(db);
  const obd = await sql<ObdRow & { vehicle_id: number }>`
    SELECT w.vehicle_id, o.* FROM ${obdRecordsOfRanges(ranges)} ORDER BY w.vehicle_id, o.ms, o.subtype`.execute(db);
  const positionsOf = byVehicle(
    positions.rows.filter((r) => r.side === 'in'),
    toPosition,
  );
  const obdOf = byVehicle(obd.rows, toObdRecord);
  const beforeOf = new Map<number, DerivePosition>();
  const afterOf = new Map<number, DerivePosition>();
  for (const n of positions.rows) if (n.side !== 'in') (n.side === 'before' ? beforeOf : afterOf).set(n.vehicle_id, toPosition(n));
  return items.map(({ vehicle, range }) => ({
    vehicle,
    from: range.from,
    to: range.to,
    positions: positionsOf.get(vehicle.vehicleId) ?? [],
    obdRecords: obdOf.get(vehicle.vehicleId) ?? [],
    // An unbounded side has no neighbour (as loadWindow).
    before: Number.isFinite(range.from) ? (beforeOf.get(vehicle.vehicleId) ?? null) : null,
    after: Number.isFinite(range.to) ? (afterOf.get(vehicle.vehicleId) ?? null) : null,
  }));
}

/** Rows of several ranges, grouped by the range's place (1-based `ord`) in the list. */
function byOrd<R extends { ord: number | string }, T>(count: number, rows: readonly R[], map: (r: R) => T): T[][] {
  const out = Array.from({ length: count }, (): T[] => []);
  for (const r of rows) out[Number(r.ord) - 1].push(map(r));
  return out;
}

/** loadPositions for several ranges (of any vehicles, overlapping or not) in one statement: each range's positions, in the order given. */
export async function loadPositionsMany(db: Kysely<DB>, ranges: Ranges): Promise<DerivePosition[][]> {
  if (!ranges.length) return [];
  const r = await sql<PositionRow & { ord: number }>`
    SELECT w.ord, p.* FROM ${positionsOfRanges(ranges)} ORDER BY w.ord, p.ms, p.terminal_id`.execute(db);
  return byOrd(ranges.length, r.rows, toPosition);
}

/** loadObdRecords for several ranges in one statement: each range's records, in the order given. */
export async function loadObdRecordsMany(db: Kysely<DB>, ranges: Ranges): Promise<DeriveObdRecord[][]> {
  if (!ranges.length) return [];
  const r = await sql<ObdRow & { ord: number }>`
    SELECT w.ord, o.* FROM ${obdRecordsOfRanges(ranges)} ORDER BY w.ord, o.ms, o.subtype`.execute(db);
  return byOrd(ranges.length, r.rows, toObdRecord);
}
