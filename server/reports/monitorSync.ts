/**
 * What changed for the live map since the last look, read from the database in one statement:
 * the rows of vehicle, organisation, vehicle_state and terminal_link written by transactions the
 * previous look could not see, each table's row count (a deleted row shows as a count the memory
 * does not reach), the alarming vehicles and where this look stands. The database stays the one source: every process
 * sees every commit, whichever process or tool made it, with no event to miss.
 *
 * A row's writer is its xmin, widened to a 64-bit transaction id (xid8) against the snapshot.
 * A look stands at `since`: the oldest transaction of this database still running when its
 * snapshot was taken, or the snapshot's xmax when none was (transactions of other databases of the
 * same server, which the snapshot lists too, are left out: they write no row here, and a long one
 * would otherwise hold every look back). Every row the look could not see was written at `since`
 * or later, also rows of subtransactions (their ids follow their parent's); so the next look picks
 * the rows written at or after it (`age()`, a cheap test per row of a sequential scan): a superset
 * of the changes, and applying a row again is harmless.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { alarmingVehicleIdsJson } from '../alarmCentre/current';

/** Where a look stands, as 64-bit transaction ids (they fit 2^53). */
export interface Snapshot {
  /** Every row written at or after this id may be unseen by the look (see above). */
  since: number;
  /** The snapshot's xmax: every transaction before it had ended, or was running (and is at `since` or later). */
  xmax: number;
}

/** A look's position as the answers' `asOf` text, and back (null when it is not one). */
export const asOfText = (s: Snapshot) => String(s.since);
export function parseAsOf(text: string): number | null {
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** [id, licence, vin, orgId, terminalId, serviceEnd 'YYYY-MM-DD', xid] */
export type VehicleTuple = [number, string, string | null, number, number | null, string | null, number];
/** [id, name, path, xid] */
export type OrgTuple = [number, string, string, number];
/** [vehicleId, latitude, longitude, speed, direction, acc, alarm, fuelL, mileageKm, time, receivedAt, xid] */
export type StateTuple = [number, number, number, number, number, boolean, number, number | null, number | null, string, string, number];
/** [terminalId, online, xid] */
export type LinkTuple = [number, boolean, number];

export interface Changes {
  snapshot: Snapshot;
  /** Transactions between the previous look's `since` and now (null on a full read). */
  age: number | null;
  vehicles: { count: number; rows: VehicleTuple[] };
  orgs: { count: number; rows: OrgTuple[] };
  states: { count: number; rows: StateTuple[] };
  links: { count: number; rows: LinkTuple[] };
  /** Every vehicle id by licence then id in the database's collation, when any vehicle row changed. */
  order: number[] | null;
  /**
   * Every alarming vehicle (alarms/current.ts), read whole each look: being alarming also ends by
   * the clock (an unhandled alarm ages out) and by deleted rows, which no writer id shows.
   */
  alarming: number[];
}

const iso = (col: string) => sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The 64-bit id of the transaction that wrote a row (its xmin lies within 2^32 before the snapshot's xmax). */
const writer = (alias: string) => sql.raw(`(cur.x - ((cur.x - ${alias}.xmin::text::bigint) & 4294967295))`);
/** The row was written at or after the previous look's `since` (always true on a full read). */
const picked = (alias: string) => sql.raw(`(cur.a IS NULL OR age(${alias}.xmin) <= cur.a)`);

/** The changes since `previous` (every row when null), in one statement and one row (PGlite pays per row). */
export async function readChanges(db: Kysely<DB>, previous: Snapshot | null): Promise<Changes> {
  const since = previous ? String(previous.since % 2 ** 32) : null;
  const r = await sql<{ body: string }>`
    WITH snap AS (SELECT pg_current_snapshot() AS s),
    cur AS (
      SELECT pg_snapshot_xmax(s)::text::bigint AS x,
             (SELECT min(p::text::bigint) FROM pg_snapshot_xip(s) p
               WHERE p::text::bigint % 4294967296 NOT IN (
                 SELECT backend_xid::text::bigint FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database())) AS oldest,
             CASE WHEN ${since}::text IS NULL THEN NULL ELSE age(${since}::text::xid) END AS a
      FROM snap
    ),
    vd AS (
      SELECT json_build_array(v.id, v.licence, v.vin, v.org_id, v.terminal_id, v.service_end::text, ${writer('v')}) AS t
      FROM vehicle v, cur WHERE ${picked('v')}
    )
    SELECT json_build_array(
      (SELECT json_build_array(COALESCE(oldest, x), x) FROM cur),
      (SELECT a FROM cur),
      (SELECT count(*) FROM vehicle),
      (SELECT COALESCE(json_agg(t), '[]') FROM vd),
      (SELECT json_build_array(count(*), COALESCE(json_agg(json_build_array(o.id, o.name, o.path, ${writer('o')})) FILTER (WHERE ${picked('o')}), '[]'))
         FROM organisation o, cur),
      (SELECT json_build_array(count(*), COALESCE(json_agg(json_build_array(s.vehicle_id, s.latitude, s.longitude, s.speed, s.direction, s.acc, s.alarm, s.fuel_l, s.mileage_km,
                ${iso('s.device_time')}, ${iso('s.received_at')}, ${writer('s')})) FILTER (WHERE ${picked('s')}), '[]'))
         FROM vehicle_state s, cur),
      (SELECT json_build_array(count(*), COALESCE(json_agg(json_build_array(l.terminal_id, l.online, ${writer('l')})) FILTER (WHERE ${picked('l')}), '[]'))
         FROM terminal_link l, cur),
      CASE WHEN EXISTS (SELECT 1 FROM vd) THEN (SELECT json_agg(id ORDER BY licence, id) FROM vehicle) END,
      ${alarmingVehicleIdsJson()}
    )::text AS body`.execute(db);
  const [[oldest, xmax], age, vehicleCount, vehicleRows, orgs, states, links, order, alarming] = JSON.parse(r.rows[0].body) as [
    [number, number],
    number | null,
    number,
    VehicleTuple[],
    [number, OrgTuple[]],
    [number, StateTuple[]],
    [number, LinkTuple[]],
    number[] | null,
    number[],
  ];
  return {
    snapshot: { since: oldest, xmax },
    age,
    vehicles: { count: vehicleCount, rows: vehicleRows },
    orgs: { count: orgs[0], rows: orgs[1] },
    states: { count: states[0], rows: states[1] },
    links: { count: links[0], rows: links[1] },
    order,
    alarming,
  };
}
