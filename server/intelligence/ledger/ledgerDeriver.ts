/**
 * The daily ledger: one row per vehicle per local day (FLEET_TIMEZONE), rebuilt for every day a
 * window touches from the whole day's trips and fuel events (so it runs after the trips deriver).
 * A trip that crosses midnight is split by time: each day gets the share of its distance, fuel,
 * driving and idle time that the trip spent in that day; the trip is counted on the day it began,
 * and its top speed counts on every day it touched. The day says where its distance came from:
 * gnss_km is the part its trips measured from the filtered GNSS track (a trip's distance_source),
 * the rest came from the odometer. Cost is the fuel used times the price in force that day: the
 * latest oil price of the organisation's region for the vehicle's fuel grade (its fuel type's
 * name), set by the vehicle's organisation or the nearest ancestor, else the fuel type's price.
 */

import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB, LedgerDayTable } from '../../platform/db/tables';
import type { Deriver, DeriveWindow } from '../deriver';
import { dayStart, localDay, localDaysOf, nextDay } from '../localDay';
import { lookupsOf, type DerivePass } from '../settingsCache';
import type { PriceRow } from './prices';
import { rangesTable } from '../windowLoad';
import { replaceRows, rowSet, type Column } from '../../platform/db/replaceRows';
import type { LedgerFigures } from '../../../schemas/kit/ledgerColumns';

export interface LedgerTrip {
  begin: number;
  end: number;
  distanceKm: number;
  /** Where the trip's distance came from (metrics.ts). */
  distanceSource?: 'odometer' | 'gnss';
  fuelL: number | null;
  idleS: number;
  maxSpeed: number;
}

export interface LedgerFuelEvent {
  kind: 'refuel' | 'drain';
  time: number;
  amountL: number;
}

export type { PriceRow, VehiclePrices } from './prices';
export { vehiclePrices } from './prices';

/** One day's figures: the type the report routes answer with (schemas/kit, shared with the console). */
export type { LedgerFigures };

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The price in force on a day: the newest oil price effective by then, else the fuel type's. */
export function priceOn(day: string, prices: PriceRow[], fallback: number | null): number {
  let best: PriceRow | null = null;
  for (const p of prices) if (p.effectiveDate <= day && (!best || p.effectiveDate > best.effectiveDate)) best = p;
  return best?.price ?? fallback ?? 0;
}

/** The part of a day's mileage that came from the filtered GNSS track, not the odometer (pure; ledgerOfDay's split by time). */
export function gnssKmOfDay(day: string, timeZone: string, trips: LedgerTrip[]): number {
  const lo = dayStart(day, timeZone);
  const hi = dayStart(nextDay(day), timeZone);
  let km = 0;
  for (const t of trips) {
    if (t.distanceSource !== 'gnss') continue;
    const overlap = Math.min(t.end, hi) - Math.max(t.begin, lo);
    const duration = t.end - t.begin;
    if (overlap <= 0 && !(duration === 0 && t.begin >= lo && t.begin < hi)) continue;
    km += t.distanceKm * (duration > 0 ? overlap / duration : 1);
  }
  return round(km, 3);
}

/** One day's figures (pure). */
export function ledgerOfDay(day: string, timeZone: string, trips: LedgerTrip[], events: LedgerFuelEvent[], price: number): LedgerFigures {
  const lo = dayStart(day, timeZone);
  const hi = dayStart(nextDay(day), timeZone);
  const f: LedgerFigures = { mileageKm: 0, fuelL: 0, refuelL: 0, drainL: 0, drivingS: 0, idleS: 0, tripCount: 0, maxSpeed: 0, cost: 0 };
  for (const t of trips) {
    const overlap = Math.min(t.end, hi) - Math.max(t.begin, lo);
    const duration = t.end - t.begin;
    const inDay = t.begin >= lo && t.begin < hi;
    if (overlap <= 0 && !(duration === 0 && inDay)) continue;
    const share = duration > 0 ? overlap / duration : 1;
    f.mileageKm += t.distanceKm * share;
    f.fuelL += (t.fuelL ?? 0) * share;
    f.idleS += t.idleS * share;
    f.drivingS += Math.max(0, duration / 1000 - t.idleS) * share;
    if (inDay) f.tripCount++;
    f.maxSpeed = Math.max(f.maxSpeed, t.maxSpeed);
  }
  for (const e of events) {
    if (e.time < lo || e.time >= hi) continue;
    if (e.kind === 'refuel') f.refuelL += e.amountL;
    else f.drainL += e.amountL;
  }
  return {
    mileageKm: round(f.mileageKm, 3),
    fuelL: round(f.fuelL, 2),
    refuelL: round(f.refuelL, 2),
    drainL: round(f.drainL, 2),
    drivingS: Math.round(f.drivingS),
    idleS: Math.round(f.idleS),
    tripCount: f.tripCount,
    maxSpeed: f.maxSpeed,
    cost: round(f.fuelL * price, 2),
  };
}

const LEDGER_COLUMNS: ReadonlyArray<Column<Insertable<LedgerDayTable>>> = [
  ['vehicle_id', 'int'],
  ['day', 'date'],
  ['org_id', 'int'],
  ['mileage_km', 'float8'],
  ['gnss_km', 'float8'],
  ['fuel_l', 'float8'],
  ['refuel_l', 'float8'],
  ['drain_l', 'float8'],
  ['driving_s', 'int'],
  ['idle_s', 'int'],
  ['trip_count', 'int'],
  ['max_speed', 'real'],
  ['cost', 'float8'],
];

export const ledgerDeriver: Deriver = {
  name: 'ledger',

  async rebuild(trx: Kysely<DB>, w: DeriveWindow, pass?: DerivePass): Promise<void> {
    await ledgerDeriver.rebuildMany!(trx, [w], pass);
  },

  /** Every day the windows' positions touch, rebuilt from the whole day's trips and fuel events: three statements for all windows, plus the prices. */
  async rebuildMany(trx: Kysely<DB>, windows: readonly DeriveWindow[], pass?: DerivePass): Promise<void> {
    const spans = windows.flatMap((w) => {
      const tz = w.vehicle.timeZone;
      const days = localDaysOf(w.positions, tz);
      if (!days.size) return [];
      const sorted = [...days].sort();
      return [
        {
          w,
          days,
          first: sorted[0],
          last: sorted[sorted.length - 1],
          vehicleId: w.vehicle.vehicleId,
          from: dayStart(sorted[0], tz),
          to: dayStart(nextDay(sorted[sorted.length - 1]), tz),
        },
      ];
    });
    if (!spans.length) return;
    const trips = await sql<{
      vehicle_id: number;
      ord: number;
      b: number;
      e: number;
      distance_km: number;
      distance_source: 'odometer' | 'gnss';
      fuel_l: number | null;
      idle_s: number;
      max_speed: number;
    }>`
      SELECT w.ord, t.vehicle_id, (extract(epoch FROM t.begin_time) * 1000)::float8 AS b, (extract(epoch FROM t.end_time) * 1000)::float8 AS e,
             t.distance_km, t.distance_source, t.fuel_l, t.idle_s, t.max_speed
      FROM ${rangesTable(spans)} JOIN trip t ON t.vehicle_id = w.vehicle_id AND t.begin_time < w.hi AND t.end_time >= w.lo`.execute(trx);
    const events = await sql<{ ord: number; kind: 'refuel' | 'drain'; t: number; amount_l: number }>`
      SELECT w.ord, e.kind, (extract(epoch FROM e.time) * 1000)::float8 AS t, e.amount_l
      FROM ${rangesTable(spans)} JOIN fuel_event e ON e.vehicle_id = w.vehicle_id AND e.time >= w.lo AND e.time < w.hi`.execute(trx);
    const tripsOf = spans.map((): LedgerTrip[] => []);
    for (const t of trips.rows)
      tripsOf[Number(t.ord) - 1].push({
        begin: Number(t.b),
        end: Number(t.e),
        distanceKm: t.distance_km,
        distanceSource: t.distance_source,
        fuelL: t.fuel_l,
        idleS: t.idle_s,
        maxSpeed: Number(t.max_speed),
      });
    const eventsOf = spans.map((): LedgerFuelEvent[] => []);
    for (const e of events.rows) eventsOf[Number(e.ord) - 1].push({ kind: e.kind, time: Number(e.t), amountL: e.amount_l });
    const lookups = lookupsOf(trx, pass);
    const rows: Array<Insertable<LedgerDayTable>> = [];
    for (const [i, { w, days, first, last }] of spans.entries()) {
      const tz = w.vehicle.timeZone;
      // Days the trips reach into (a trip crossing midnight) get their row too.
      for (const t of tripsOf[i]) for (const d of [localDay(t.begin, tz), localDay(t.end, tz)]) if (d >= first && d <= last) days.add(d);
      const { prices, fallback } = await lookups.prices(w.vehicle);
      for (const day of [...days].sort()) {
        const f = ledgerOfDay(day, tz, tripsOf[i], eventsOf[i], priceOn(day, prices, fallback));
        rows.push({
          vehicle_id: w.vehicle.vehicleId,
          day,
          org_id: w.vehicle.orgId,
          mileage_km: f.mileageKm,
          gnss_km: gnssKmOfDay(day, tz, tripsOf[i]),
          fuel_l: f.fuelL,
          refuel_l: f.refuelL,
          drain_l: f.drainL,
          driving_s: f.drivingS,
          idle_s: f.idleS,
          trip_count: f.tripCount,
          max_speed: f.maxSpeed,
          cost: f.cost,
        });
      }
    }
    // Every day replaced gets a row: an upsert on (vehicle, day) replaces them all.
    await replaceRows(
      trx,
      null,
      [rowSet({ table: 'ledger_day', columns: LEDGER_COLUMNS, key: ['vehicle_id', 'day'], rows })],
      [],
      pass?.hold,
    );
  },
};
