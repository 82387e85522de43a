/**
 * Driver sessions: the IC card events of a vehicle (driver_card_event) paired in device-time order
 * into spans during which one card was in the reader. Pairing is a pure walk over the events sorted
 * by their own time, so the sessions never depend on the order the events arrived in (a blind-area
 * upload only fills in the past). The rules:
 * - an insert with a read card opens a session of that card, ending any session still open at that
 *   instant (a reader holds one card: the card before was taken out unseen);
 * - an insert whose card could not be read ends the open session and opens none;
 * - a remove ends the open session; a remove with none open (its insert lost) makes no session, as
 *   when that card went in is unknown;
 * - a session with no end yet is open: it lasts until the next event of that vehicle.
 * Events at the same instant sort remove before insert, then by card number.
 * A session's driver is the driver whose card number it is, of the vehicle's organisation or the
 * nearest one above it; none (null) for a card no such driver holds (an unknown card). The card,
 * not the driver, is what a session keeps: assigning a card to a driver names the driver of every
 * session of that card, past and future.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import { pathAbove } from '../platform/scope';

export interface CardEventRow {
  id: string;
  vehicleId: number;
  /** Epoch ms. */
  at: number;
  action: 'in' | 'out';
  cardNo: string | null;
}

export interface DriverSession {
  vehicleId: number;
  cardNo: string;
  /** Epoch ms. */
  begin: number;
  /** Epoch ms; null while the card is still in. */
  end: number | null;
  /** The events that began and ended it (ids of driver_card_event). */
  beginEventId: string;
  endEventId: string | null;
  driverId: number | null;
  driverName: string | null;
}

/** Device-time order, the same whatever order the events came in (see the rules above). */
export function compareEvents(a: CardEventRow, b: CardEventRow): number {
  return a.at - b.at || (a.action === b.action ? 0 : a.action === 'out' ? -1 : 1) || (a.cardNo ?? '').localeCompare(b.cardNo ?? '');
}

/** The sessions of one vehicle's events (any order), driver not yet named. */
export function pairSessions(events: readonly CardEventRow[]): DriverSession[] {
  const sorted = [...events].sort(compareEvents);
  const out: DriverSession[] = [];
  let open: DriverSession | null = null;
  for (const e of sorted) {
    if (open) {
      open.end = e.at;
      open.endEventId = e.id;
      open = null;
    }
    if (e.action === 'in' && e.cardNo) {
      open = {
        vehicleId: e.vehicleId,
        cardNo: e.cardNo,
        begin: e.at,
        end: null,
        beginEventId: e.id,
        endEventId: null,
        driverId: null,
        driverName: null,
      };
      out.push(open);
    }
  }
  return out;
}

/**
 * The sessions overlapping [from, to] of the vehicles matching `vehicleWhere` (a condition on the
 * vehicle alias `v`), with their drivers: the window's events and, per vehicle, the last event
 * before it (whatever it is decides whether a session is open at `from`).
 */
export async function sessionsOverlapping(
  db: Kysely<DB>,
  vehicleWhere: RawBuilder<unknown>,
  from: number,
  to: number,
): Promise<DriverSession[]> {
  const lo = new Date(from);
  const hi = new Date(to);
  const r = await sql<{ id: string; vehicleId: number; at: Date; action: 'in' | 'out'; cardNo: string | null }>`
    SELECT e.id::text AS id, e.vehicle_id AS "vehicleId", e.at, e.action, e.card_no AS "cardNo"
    FROM driver_card_event e JOIN vehicle v ON v.id = e.vehicle_id
    WHERE ${vehicleWhere} AND e.at >= ${lo} AND e.at <= ${hi}
    UNION ALL
    SELECT p.id, p."vehicleId", p.at, p.action, p."cardNo" FROM vehicle v CROSS JOIN LATERAL (
      SELECT e.id::text AS id, e.vehicle_id AS "vehicleId", e.at, e.action, e.card_no AS "cardNo" FROM driver_card_event e
      WHERE e.vehicle_id = v.id AND e.at < ${lo}
      ORDER BY e.at DESC, (e.action = 'in') DESC, coalesce(e.card_no, '') DESC LIMIT 1) p
    WHERE ${vehicleWhere}`.execute(db);
  const byVehicle = new Map<number, CardEventRow[]>();
  for (const row of r.rows) {
    const list = byVehicle.get(row.vehicleId) ?? [];
    list.push({ ...row, at: new Date(row.at).getTime() });
    byVehicle.set(row.vehicleId, list);
  }
  const sessions = [...byVehicle.values()].flatMap(pairSessions).filter((s) => s.begin <= to && (s.end === null || s.end >= from));
  await nameDrivers(db, sessions);
  return sessions.sort((a, b) => a.begin - b.begin || a.vehicleId - b.vehicleId);
}

/** Fills each session's driver: the holder of its card in the vehicle's organisation or the nearest above it. */
async function nameDrivers(db: Kysely<DB>, sessions: DriverSession[]): Promise<void> {
  if (!sessions.length) return;
  const pairs = [...new Set(sessions.map((s) => `${s.vehicleId}\u0000${s.cardNo}`))].map((k) => k.split('\u0000'));
  const r = await sql<{ vehicleId: number; cardNo: string; driverId: number; driverName: string }>`
    SELECT DISTINCT ON (x.vehicle_id, x.card_no) x.vehicle_id AS "vehicleId", x.card_no AS "cardNo", d.id AS "driverId", d.name AS "driverName"
    FROM unnest(${pairs.map((p) => Number(p[0]))}::int[], ${pairs.map((p) => p[1])}::text[]) AS x(vehicle_id, card_no)
    JOIN vehicle v ON v.id = x.vehicle_id JOIN organisation vo ON vo.id = v.org_id
    JOIN driver d ON d.card_no = x.card_no JOIN organisation o ON o.id = d.org_id
    WHERE ${pathAbove('o.path', sql.ref('vo.path'))}
    ORDER BY x.vehicle_id, x.card_no, length(o.path) DESC`.execute(db);
  const found = new Map(r.rows.map((d) => [`${d.vehicleId}\u0000${d.cardNo}`, d]));
  for (const s of sessions) {
    const d = found.get(`${s.vehicleId}\u0000${s.cardNo}`);
    if (d) {
      s.driverId = d.driverId;
      s.driverName = d.driverName;
    }
  }
}
