/** Scripted terminal days with known answers (times are Asia/Shanghai, UTC+8). */

import { playLegs, type Leg, type ScriptState } from '../../../server/simulator/dayScript';

/** Local midnight of 2026-11-20 in Shanghai. */
export const DAY = '2026-11-20';
export const MIDNIGHT = Date.parse('2026-11-19T16:00:00Z');
export const at = (hhmm: string) => MIDNIGHT + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))) * 60_000;

/**
 * 00:00 parked → 08:00 drive 30 min at 36 km/h, idle 3 min, drive 30 min (trip 1: 36 km, 180 s idle)
 * → 09:03 parked 60 min, refuel 40 L → 10:03 drive 40 min (trip 2: 24 km) → 10:43 parked 137 min
 * → 13:00 drive 30 min (trip 3: 18 km) → 13:30 parked 30 min → 14:00 drive 30 min (trip 4: 18 km)
 * → 14:30 parked, 30 L drained in the night (the tank holds 400 L: events start at 20 L), until 24:00.
 */
export const LEGS: Leg[] = [
  { kind: 'park', minutes: 480 },
  { kind: 'drive', minutes: 30, kmh: 36, heading: 90 },
  { kind: 'idle', minutes: 3 },
  { kind: 'drive', minutes: 30, kmh: 36, heading: 90 },
  { kind: 'park', minutes: 60, refuelL: 40 },
  { kind: 'drive', minutes: 40, kmh: 36, heading: 270 },
  { kind: 'park', minutes: 137 },
  { kind: 'drive', minutes: 30, kmh: 36, heading: 0 },
  { kind: 'park', minutes: 30 },
  { kind: 'drive', minutes: 30, kmh: 36, heading: 180 },
  { kind: 'park', minutes: 570, drainL: 30 },
];

export const START: ScriptState = { time: MIDNIGHT, latitude: 31.2304, longitude: 121.4737, odometerKm: 12_000, fuelL: 50 };

export const scriptedDay = () => playLegs({ ...START }, LEGS);

export const EXPECTED = {
  trips: [
    { begin: at('08:00'), end: at('09:03'), distanceKm: 36, idleS: 180 },
    { begin: at('10:03'), end: at('10:43'), distanceKm: 24, idleS: 0 },
    { begin: at('13:00'), end: at('13:30'), distanceKm: 18, idleS: 0 },
    { begin: at('14:00'), end: at('14:30'), distanceKm: 18, idleS: 0 },
  ],
  stops: [
    { begin: at('00:00'), end: at('08:00') },
    { begin: at('09:03'), end: at('10:03') },
    { begin: at('10:43'), end: at('13:00') },
    { begin: at('13:30'), end: at('14:00') },
  ],
};
