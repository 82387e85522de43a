/**
 * A vehicle's day as a script of legs (drive, idle, park with a refuel or a drain), played into
 * the location reports a terminal would send: ACC on with speed while driving (every driveEveryS),
 * ACC on at a standstill while idling, ACC off every parkEveryS while parked. The odometer (0x01)
 * and fuel level (0x02) follow the legs. Tests script days with known answers from it; the demo
 * history scripts a month of working days.
 */

import type { LocationInput } from '../telematics/jt808/codec';

export type Leg =
  | {
      kind: 'drive';
      minutes: number;
      kmh: number;
      /** degrees from north */ heading: number;
      /** trouble codes the OBD block lists while driving */ dtcs?: string[];
      /** a haul that leaves town: the town's bounds do not turn it */ outOfTown?: boolean;
    }
  | { kind: 'idle'; minutes: number }
  | {
      kind: 'park';
      minutes: number;
      /** litres added in the middle of the stay */ refuelL?: number;
      /** litres taken in the middle of the stay */ drainL?: number;
    };

export interface ScriptState {
  time: number;
  latitude: number;
  longitude: number;
  odometerKm: number;
  fuelL: number;
}

export interface ScriptOptions {
  driveEveryS?: number;
  parkEveryS?: number;
  fuelPerKm?: number;
  idleLPerH?: number;
  /**
   * Where the town's streets end: a drive past this distance from its centre turns towards the
   * centre there and goes on (the town's ring road), unless its leg leaves town.
   */
  town?: { latitude: number; longitude: number; radiusKm: number };
}

const KM_PER_DEG_LAT = 111.32;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The reports of the legs from `state`, which it advances to the end of the last leg. */
export function playLegs(state: ScriptState, legs: Leg[], opts: ScriptOptions = {}): LocationInput[] {
  const driveEvery = opts.driveEveryS ?? 30;
  const parkEvery = opts.parkEveryS ?? 300;
  const perKm = opts.fuelPerKm ?? 0.1;
  const idlePerH = opts.idleLPerH ?? 1.5;
  const out: LocationInput[] = [];
  const report = (acc: boolean, speed: number, heading: number, dtcs?: string[]) =>
    out.push({
      status: { accOn: acc, fixed: true, gps: true },
      latitude: +state.latitude.toFixed(6),
      longitude: +state.longitude.toFixed(6),
      altitude: 10,
      speed,
      direction: Math.round(heading) % 360,
      time: state.time,
      extras: { mileageKm: r1(state.odometerKm), fuelL: r1(state.fuelL), ...(dtcs?.length ? { obd: { dtcs } } : {}) },
    });
  for (const leg of legs) {
    const end = state.time + leg.minutes * 60_000;
    if (leg.kind === 'drive') {
      let heading = leg.heading;
      const town = leg.outOfTown ? undefined : opts.town;
      while (state.time < end) {
        if (town) heading = turnedIn(state, heading, town);
        const h = (heading * Math.PI) / 180;
        report(true, leg.kmh, heading, leg.dtcs);
        const dt = Math.min(driveEvery * 1000, end - state.time);
        const km = (leg.kmh * dt) / 3_600_000;
        state.latitude += (km * Math.cos(h)) / KM_PER_DEG_LAT;
        state.longitude += (km * Math.sin(h)) / (KM_PER_DEG_LAT * Math.cos((state.latitude * Math.PI) / 180));
        state.odometerKm += km;
        state.fuelL -= km * perKm;
        state.time += dt;
      }
    } else if (leg.kind === 'idle') {
      while (state.time < end) {
        report(true, 0, 0);
        const dt = Math.min(driveEvery * 1000, end - state.time);
        state.fuelL -= (idlePerH * dt) / 3_600_000;
        state.time += dt;
      }
    } else {
      const count = Math.ceil((leg.minutes * 60) / parkEvery);
      const change = (leg.refuelL ?? 0) - (leg.drainL ?? 0);
      // The change takes two reports, half then the rest, from the middle; a stay of one or two reports takes it whole at its first.
      const from = count >= 3 ? count >> 1 : 0;
      const share = count >= 3 ? 0.5 : 1;
      for (let i = 0; state.time < end; i++) {
        if (change && (i === from || (share < 1 && i === from + 1))) state.fuelL += change * share;
        report(false, 0, 0);
        state.time += Math.min(parkEvery * 1000, end - state.time);
      }
    }
  }
  return out;
}

/** The heading from `at` on: towards the town's centre once past its radius and heading further out. */
function turnedIn(at: ScriptState, heading: number, town: NonNullable<ScriptOptions['town']>): number {
  const north = (town.latitude - at.latitude) * KM_PER_DEG_LAT;
  const east = (town.longitude - at.longitude) * KM_PER_DEG_LAT * Math.cos((at.latitude * Math.PI) / 180);
  if (Math.hypot(north, east) <= town.radiusKm) return heading;
  const inward = ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360;
  // Still heading inwards (within 90° of the centre): it goes on as it was.
  const off = Math.abs(((heading - inward + 540) % 360) - 180);
  return off < 90 ? heading : inward;
}
