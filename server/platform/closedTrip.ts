/**
 * A trip row as the trips deriver writes it, as the bus carries it to the event subscriptions
 * ('trips.closed'): plain numbers, times in epoch ms, which cross a thread or NATS unchanged.
 */

import type { Insertable } from 'kysely';
import type { TripTable } from './db/tables';
import type { ClosedTrip } from './telemetry';

/** A row's time as tripRows writes it (always set there). */
export const tripTime = (d: Date | string | undefined): number => (d === undefined ? NaN : new Date(d).getTime());

export const closedTrip = (t: Insertable<TripTable>): ClosedTrip => ({
  vehicleId: t.vehicle_id,
  begin: tripTime(t.begin_time),
  end: tripTime(t.end_time),
  durationS: t.duration_s,
  distanceKm: t.distance_km,
  distanceSource: t.distance_source,
  fuelL: t.fuel_l ?? null,
  idleS: t.idle_s,
  maxSpeed: t.max_speed,
  avgSpeed: t.avg_speed,
  start: { latitude: t.start_latitude, longitude: t.start_longitude },
  stop: { latitude: t.end_latitude, longitude: t.end_longitude },
});
