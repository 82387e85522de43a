/**
 * Fuel card purchases held against what the vehicle's fuel sensor saw. Each transaction of a card
 * is matched to a refuel event of the card's vehicle: within MATCH_WINDOW_MS of the purchase, its
 * litres within LITRES_TOLERANCE of the purchase's, and within STATION_RADIUS_KM of the station
 * when the station's place is known; each refuel pays for one purchase at most (the nearest in
 * time). A purchase of more litres than the vehicle's tank holds is `beyondTank`; one with no refuel
 * once the vehicle's derivation has gone past the window is `noRefuel`; until then it is `pending`
 * (its refuel may arrive in a blind-area upload). Both suspect kinds raise a FuelCardSuspect alarm
 * once per transaction.
 *
 * Settled on the maintenance clock's tick, every transaction of the last SETTLE_DAYS days (and any
 * still pending) again: refuels are re-derived when late data arrives, so a settled status is a
 * reading of the events as they stand, recomputed from them, never an input.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { RaisedAlarm } from '../intelligence/alarms/store';
import { raiseOnce } from './clockAlarm';

export const MATCH_WINDOW_MS = 10 * 60_000;
export const LITRES_TOLERANCE = 0.1;
export const STATION_RADIUS_KM = 0.1;
/** How far back a tick settles transactions again. */
const SETTLE_DAYS = 35;

export type MatchStatus = 'pending' | 'matched' | 'noRefuel' | 'beyondTank';

interface Candidate {
  id: number;
  vehicle_id: number;
  org_path: string;
  card_no: string;
  purchased_at: Date;
  litres: number;
  amount: number;
  station: string | null;
  tank: number | null;
  derived_to: Date | null;
  match_status: string | null;
  fuel_event_id: number | null;
  /** Refuel events that fit, nearest in time first: [id, |Δt| ms]. */
  events: Array<[number, number]> | null;
}

/** What each transaction reads as: its status and the refuel that paid for it (matched only). */
export function settle(candidates: readonly Candidate[]): Map<number, { status: MatchStatus; eventId: number | null }> {
  const out = new Map<number, { status: MatchStatus; eventId: number | null }>();
  const taken = new Set<number>();
  // The closest fits first, so a refuel goes to the purchase nearest to it in time.
  const fits = candidates
    .flatMap((c) => (c.events ?? []).map(([eventId, gap]) => ({ c, eventId, gap })))
    .sort((a, b) => a.gap - b.gap || a.c.id - b.c.id);
  for (const { c, eventId } of fits) {
    if (out.has(c.id) || taken.has(eventId) || (c.tank !== null && c.litres > c.tank)) continue;
    out.set(c.id, { status: 'matched', eventId });
    taken.add(eventId);
  }
  for (const c of candidates) {
    if (out.has(c.id)) continue;
    const derivedPast = c.derived_to !== null && c.derived_to.getTime() >= c.purchased_at.getTime() + MATCH_WINDOW_MS;
    const status: MatchStatus = c.tank !== null && c.litres > c.tank ? 'beyondTank' : derivedPast ? 'noRefuel' : 'pending';
    out.set(c.id, { status, eventId: null });
  }
  return out;
}

/** Settles the transactions of the last SETTLE_DAYS days as of `now`, and raises the alarms of the suspect ones. */
export async function settleFuelCards(db: Kysely<DB>, now: number): Promise<RaisedAlarm[]> {
  const since = new Date(now - SETTLE_DAYS * 86_400_000);
  const window = `${MATCH_WINDOW_MS} milliseconds`;
  const r = await sql<Candidate>`
    SELECT t.id, c.vehicle_id, o.path AS org_path, c.card_no, t.purchased_at, t.litres, t.amount, t.station,
           v.tank_capacity AS tank, s.watermark AS derived_to, t.match_status, t.fuel_event_id,
           (SELECT json_agg(json_build_array(e.id, abs(extract(epoch FROM e.time - t.purchased_at) * 1000)) ORDER BY abs(extract(epoch FROM e.time - t.purchased_at)))
              FROM fuel_event e
             WHERE e.vehicle_id = c.vehicle_id AND e.kind = 'refuel'
               AND e.time BETWEEN t.purchased_at - ${window}::interval AND t.purchased_at + ${window}::interval
               AND abs(e.amount_l - t.litres) <= ${LITRES_TOLERANCE} * t.litres
               AND (t.station_latitude IS NULL OR t.station_longitude IS NULL
                    OR 6371 * 2 * asin(sqrt(power(sin(radians(e.latitude - t.station_latitude) / 2), 2)
                       + cos(radians(t.station_latitude)) * cos(radians(e.latitude)) * power(sin(radians(e.longitude - t.station_longitude) / 2), 2)))
                       <= ${STATION_RADIUS_KM})) AS events
      FROM fuel_card_transaction t
      JOIN fuel_card c ON c.id = t.card_id
      JOIN vehicle v ON v.id = c.vehicle_id
      JOIN organisation o ON o.id = v.org_id
      LEFT JOIN derive_state s ON s.vehicle_id = c.vehicle_id
     WHERE t.purchased_at >= ${since} OR t.match_status = 'pending' OR t.match_status IS NULL`.execute(db);
  const settled = settle(r.rows);
  const changed = r.rows.filter((c) => {
    const s = settled.get(c.id)!;
    return s.status !== c.match_status || s.eventId !== c.fuel_event_id;
  });
  if (changed.length)
    await sql`
      UPDATE fuel_card_transaction t SET match_status = x.status, fuel_event_id = x.event_id
        FROM unnest(${changed.map((c) => c.id)}::int[], ${changed.map((c) => settled.get(c.id)!.status)}::text[],
                    ${changed.map((c) => settled.get(c.id)!.eventId)}::int[]) AS x(id, status, event_id)
       WHERE t.id = x.id`.execute(db);
  return raiseSuspects(
    db,
    now,
    r.rows.filter((c) => {
      const s = settled.get(c.id)!.status;
      return s === 'noRefuel' || s === 'beyondTank';
    }),
    settled,
  );
}

/** A FuelCardSuspect alarm per suspect transaction, once (subject `fuelCard:<transaction id>`; the migration's partial unique index). */
async function raiseSuspects(
  db: Kysely<DB>,
  now: number,
  suspects: readonly Candidate[],
  settled: Map<number, { status: MatchStatus }>,
): Promise<RaisedAlarm[]> {
  const raised: RaisedAlarm[] = [];
  for (const c of suspects) {
    const reason = settled.get(c.id)!.status;
    const alarm = await raiseOnce(
      db,
      {
        vehicleId: c.vehicle_id,
        orgPath: c.org_path,
        type: 'FuelCardSuspect',
        subject: `fuelCard:${c.id}`,
        at: c.purchased_at.getTime(),
        firedAt: now,
        value: c.litres,
        detail: { transactionId: c.id, cardNo: c.card_no, station: c.station, litres: c.litres, amount: c.amount, tankL: c.tank, reason },
      },
      ['FuelCardSuspect'],
    );
    if (alarm) raised.push(alarm);
  }
  return raised;
}
