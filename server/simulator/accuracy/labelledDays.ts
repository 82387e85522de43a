/**
 * The accuracy suite's labelled vehicle-days: working days of the demo history (history.ts's
 * workingDay) with refuels and night drains added, played into reports (dayScript.ts), labelled
 * with their truth (dayTruth.ts) and sent through a noise profile (noise.ts). Deterministic for a
 * vehicle, a day and a profile.
 */

import type { LocationInput } from '../../telematics/jt808/codec';
import { playLegs, type Leg, type ScriptOptions, type ScriptState } from '../dayScript';
import { dayTruth, type DayTruth } from '../dayTruth';
import { workingDay } from '../history';
import { eventThresholdL } from '../../intelligence/trips/fuel';
import { applyNoise, type NoiseModels } from '../noise';
import { CITIES, rng } from '../vehicle';

export interface NoiseProfile {
  name: string;
  models: NoiseModels;
  /** Whether the terminal has a working odometer (the distance tolerance is 1 % with one, 2 % from GNSS alone). */
  odometer: boolean;
}

/** The terminals the suite drives: every kind of noise alone, then all of them at once. */
export const PROFILES: readonly NoiseProfile[] = [
  { name: 'clean', models: {}, odometer: true },
  { name: 'jitter', models: { jitterM: 8 }, odometer: true },
  { name: 'multipath', models: { jitterM: 5, multipath: { rate: 0.03, minM: 200, maxM: 800 } }, odometer: true },
  { name: 'parked drift', models: { jitterM: 5, parkedDrift: { stepM: 40, maxM: 300 } }, odometer: true },
  {
    name: 'no odometer',
    models: { jitterM: 8, multipath: { rate: 0.02, minM: 200, maxM: 600 }, odometer: { kind: 'missing' } },
    odometer: false,
  },
  { name: 'frozen odometer', models: { jitterM: 5, odometer: { kind: 'frozen', fromShare: 0.4 } }, odometer: false },
  { name: 'fuel slosh', models: { fuel: { sigmaL: 0.5, sloshL: 8 }, fuelSteps: { overshootL: 6 } }, odometer: true },
  { name: 'duplicates, reordered', models: { duplicateRate: 0.05, reorder: { rate: 0.1, maxShift: 20 } }, odometer: true },
  { name: 'clock off, speed spikes', models: { clockMinutes: 7, speedSpikes: { rate: 0.02, kmh: 190 } }, odometer: true },
  {
    name: 'cheap terminal',
    models: {
      jitterM: 8,
      multipath: { rate: 0.02, minM: 200, maxM: 800 },
      parkedDrift: { stepM: 40, maxM: 300 },
      odometer: { kind: 'missing' },
      fuel: { sigmaL: 0.5, sloshL: 8 },
      fuelSteps: { overshootL: 6 },
      duplicateRate: 0.03,
      reorder: { rate: 0.05, maxShift: 10 },
      clockMinutes: -4,
      speedSpikes: { rate: 0.01, kmh: 190 },
    },
    odometer: false,
  },
];

/** How the suite's terminals report: every 30 s with the ignition on, every 5 min parked; the demo's burn. */
export const SCRIPT: ScriptOptions = { driveEveryS: 30, parkEveryS: 300, fuelPerKm: 0.3, idleLPerH: 1.5 };

const DAY_MS = 86_400_000;
const TANK_L = 400;

export interface LabelledDay {
  /** Index of the vehicle among the suite's. */
  vehicle: number;
  /** Local day (Asia/Shanghai). */
  day: string;
  profile: NoiseProfile;
  truth: DayTruth;
  /** The reports as the noisy terminal sends them. */
  reports: LocationInput[];
}

/**
 * A working day with a refuel at a long stay and now and then a night drain, so most days show
 * events. A stop holds one of them at most: its level is read as one step (trips/fuel.ts), so a
 * fill and a theft in the same stop are one net step (docs/accuracy.md, what the suite does not cover),
 * and a top-up below the event threshold is left out.
 */
function withEvents(legs: Leg[], seed: number, fuelL: number): Leg[] {
  const random = rng(seed);
  // A top-up below what the rules call an event (trips/fuel.ts: 5 % of the tank) is no labelled event: none is played.
  const out = legs.map((l) =>
    l.kind === 'park' && l.refuelL && l.refuelL < eventThresholdL(TANK_L) ? { ...l, refuelL: undefined } : { ...l },
  );
  const last = out.length - 1;
  const night = out[last];
  const beforeNight = out[last - 1];
  const drain =
    night.kind === 'park' &&
    night.minutes >= 120 &&
    !night.drainL &&
    fuelL > 120 &&
    random() < 0.35 &&
    !(beforeNight?.kind === 'park' && beforeNight.refuelL);
  if (drain) night.drainL = Math.round(25 + random() * 35);
  const parks = out.flatMap((l, i) => (l.kind === 'park' && i > 0 && i < (drain ? last - 1 : last) && l.minutes >= 30 ? [i] : []));
  const refuelled = out.some((l) => l.kind === 'park' && l.refuelL);
  if (!refuelled && parks.length && fuelL < 300 && random() < 0.6) {
    const at = out[parks[Math.floor(random() * parks.length)]];
    if (at.kind === 'park') at.refuelL = Math.round(Math.min(TANK_L * 0.95 - fuelL, 60 + random() * 120));
  }
  return out;
}

/**
 * `vehicles` × `days` labelled days from local midnight of `firstDay` (Asia/Shanghai), each
 * vehicle's days in order and continuing one another; a vehicle-day's profile is PROFILES[(vehicle
 * + day) % n] unless `profiles` pins them.
 */
export function labelledDays(opts: {
  vehicles: number;
  days: number;
  firstDay: string;
  profiles?: readonly NoiseProfile[];
}): LabelledDay[][] {
  const profiles = opts.profiles ?? PROFILES;
  const midnight = Date.parse(`${opts.firstDay}T00:00:00+08:00`);
  return Array.from({ length: opts.vehicles }, (_, v) => {
    const city = CITIES[v % CITIES.length];
    const random = rng(v * 7_919 + 17);
    const state: ScriptState = {
      time: midnight,
      latitude: city.latitude + (random() - 0.5) * 0.1,
      longitude: city.longitude + (random() - 0.5) * 0.1,
      odometerKm: 20_000 + Math.floor(random() * 80_000),
      fuelL: 150 + random() * 200,
    };
    return Array.from({ length: opts.days }, (_, d): LabelledDay => {
      const start = midnight + d * DAY_MS;
      const day = new Date(start + 8 * 3_600_000).toISOString().slice(0, 10);
      const weekday = new Date(start + 8 * 3_600_000).getUTCDay();
      const seed = v * 100_003 + d * 31 + 7;
      const legs = withEvents(workingDay(seed, weekday, state.fuelL, city), seed + 1, state.fuelL);
      const profile = profiles[(v + d) % profiles.length];
      const truth = dayTruth(start, legs, SCRIPT);
      const clean = playLegs(state, legs, SCRIPT);
      return { vehicle: v, day, profile, truth, reports: applyNoise(clean, profile.models, seed) };
    });
  });
}
