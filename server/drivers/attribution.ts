/**
 * Who drove: derived rows (trips, behaviour events, alarms, ledger days) attributed to drivers at
 * read time by their overlap with the driver sessions (sessions.ts), never by the hand assignment
 * of a driver to a vehicle. The one place this rule is written:
 * - a trip goes to the session covering most of it (the earlier of two equal ones); a trip of no
 *   duration to the session covering its begin;
 * - an event or an alarm to the session covering its time (its begin);
 * - a ledger day is split by the trips (each trip whole to its driver, and shared between days by
 *   time as the ledger shares it), so a session spanning midnight splits both days' figures;
 * - a row no session covers is unassigned.
 * A session of an unknown card attributes to that card with no driver.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import { sessionsOverlapping, type DriverSession } from './sessions';

export interface DriverRef {
  /** Null for a card no driver holds (an unknown card). */
  driverId: number | null;
  driverName: string | null;
  cardNo: string;
}

/** What a row answers: its driver, or null when no card session covers it (unassigned). */
export type Attribution = DriverRef | null;

const refOf = (s: DriverSession): DriverRef => ({ driverId: s.driverId, driverName: s.driverName, cardNo: s.cardNo });

/** The sessions of each vehicle, in time order, for the lookups below. */
export class SessionIndex {
  private readonly byVehicle = new Map<number, DriverSession[]>();

  constructor(
    sessions: readonly DriverSession[],
    /** What an open session's end counts as (epoch ms): now. */
    private readonly openEnd: number = Date.now(),
  ) {
    for (const s of sessions) {
      const list = this.byVehicle.get(s.vehicleId) ?? [];
      list.push(s);
      this.byVehicle.set(s.vehicleId, list);
    }
    for (const list of this.byVehicle.values()) list.sort((a, b) => a.begin - b.begin);
  }

  private endOf(s: DriverSession): number {
    return s.end ?? Math.max(this.openEnd, s.begin);
  }

  /** The driver of a span of a vehicle: the session covering most of it. */
  ofSpan(vehicleId: number, begin: number, end: number): Attribution {
    const list = this.byVehicle.get(vehicleId);
    if (!list) return null;
    if (end <= begin) return this.at(vehicleId, begin);
    let best: DriverSession | null = null;
    let most = 0;
    for (const s of list) {
      const overlap = Math.min(end, this.endOf(s)) - Math.max(begin, s.begin);
      if (overlap > most) {
        most = overlap;
        best = s;
      }
    }
    return best ? refOf(best) : null;
  }

  /** The driver at an instant of a vehicle: the session covering it (begin inclusive, end exclusive). */
  at(vehicleId: number, time: number): Attribution {
    const list = this.byVehicle.get(vehicleId);
    if (!list) return null;
    for (const s of list) if (s.begin <= time && time < this.endOf(s)) return refOf(s);
    return null;
  }
}

/** A key grouping rows by driver: the driver's id, else the unknown card, else unassigned. */
export function driverKey(a: Attribution): string {
  if (!a) return 'none';
  return a.driverId !== null ? `driver:${a.driverId}` : `card:${a.cardNo}`;
}

/** The sessions overlapping [from, to] of the vehicles matching `vehicleWhere` (a condition on alias `v`), indexed. */
export async function sessionIndex(db: Kysely<DB>, vehicleWhere: RawBuilder<unknown>, from: number, to: number): Promise<SessionIndex> {
  return new SessionIndex(await sessionsOverlapping(db, vehicleWhere, from, to));
}

/** Each span's driver (rows of any vehicles: trips as listed, say), reading only the sessions they need. */
export async function attributeSpans(
  db: Kysely<DB>,
  spans: ReadonlyArray<{ vehicleId: number; begin: number; end: number }>,
): Promise<Attribution[]> {
  if (!spans.length) return [];
  const from = Math.min(...spans.map((s) => s.begin));
  const to = Math.max(...spans.map((s) => s.end));
  const ids = [...new Set(spans.map((s) => s.vehicleId))];
  const index = await sessionIndex(db, sql`v.id = ANY (${ids}::int[])`, from, to);
  return spans.map((s) => index.ofSpan(s.vehicleId, s.begin, s.end));
}

/** Each instant's driver (behaviour events, alarms: their time), reading only the sessions they need. */
export async function attributeInstants(db: Kysely<DB>, points: ReadonlyArray<{ vehicleId: number; at: number }>): Promise<Attribution[]> {
  if (!points.length) return [];
  const times = points.map((p) => p.at);
  const ids = [...new Set(points.map((p) => p.vehicleId))];
  const index = await sessionIndex(db, sql`v.id = ANY (${ids}::int[])`, Math.min(...times), Math.max(...times));
  return points.map((p) => index.at(p.vehicleId, p.at));
}
