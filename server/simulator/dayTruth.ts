/**
 * What really happened on a scripted day (dayScript.ts), as the accuracy suite labels it: its
 * trips (the drive and idle legs between parks of at least the stop minutes), stops (the parks),
 * distance driven, fuel burnt, and the refuels and drains with the parks they happened in.
 */

import type { Leg, ScriptOptions } from './dayScript';

export interface TruthTrip {
  begin: number;
  end: number;
  km: number;
}

export interface TruthFuelEvent {
  kind: 'refuel' | 'drain';
  /** The park it happened in. */
  begin: number;
  end: number;
  amountL: number;
}

export interface DayTruth {
  trips: TruthTrip[];
  /** Stops: parks in a row are one (the first joins the night before's). */
  stops: number;
  distanceKm: number;
  /** Litres burnt driving and idling. */
  fuelUsedL: number;
  fuelEvents: TruthFuelEvent[];
}

/** The truth of `legs` played from `start` (epoch ms) with the script's options (playLegs's defaults). */
export function dayTruth(start: number, legs: readonly Leg[], opts: ScriptOptions = {}, stopMinutes = 5): DayTruth {
  const perKm = opts.fuelPerKm ?? 0.1;
  const idlePerH = opts.idleLPerH ?? 1.5;
  const truth: DayTruth = { trips: [], stops: 0, distanceKm: 0, fuelUsedL: 0, fuelEvents: [] };
  let t = start;
  let trip: TruthTrip | null = null;
  let parked = false;
  for (const leg of legs) {
    const end = t + leg.minutes * 60_000;
    if (leg.kind === 'park' && leg.minutes >= stopMinutes) {
      if (trip) truth.trips.push(trip);
      trip = null;
      if (!parked) truth.stops++;
      parked = true;
      if (leg.refuelL) truth.fuelEvents.push({ kind: 'refuel', begin: t, end, amountL: leg.refuelL });
      if (leg.drainL) truth.fuelEvents.push({ kind: 'drain', begin: t, end, amountL: leg.drainL });
    } else {
      parked = false;
      trip ??= { begin: t, end, km: 0 };
      trip.end = end;
      if (leg.kind === 'drive') {
        const km = (leg.kmh * leg.minutes) / 60;
        trip.km += km;
        truth.distanceKm += km;
        truth.fuelUsedL += km * perKm;
      } else if (leg.kind === 'idle') truth.fuelUsedL += (idlePerH * leg.minutes) / 60;
    }
    t = end;
  }
  if (trip) truth.trips.push(trip);
  return truth;
}
