/**
 * Demo history: a month of working days for the demo fleet, driven in compressed time through the
 * real gateway. Each terminal connects over TCP like any other and uploads its past days as
 * 0x0704 blind-area batches, so the reports are decoded, stored and derived (trips, ledger…)
 * exactly as real ones; nothing finished is inserted. Deterministic for a terminal and a day.
 */

import type { LocationInput } from '../telematics/jt808/codec';
import { playLegs, type Leg, type ScriptOptions, type ScriptState } from './dayScript';
import type { FleetTerminal } from './fleet';
import { dayCardEvents } from './cards';
import { SimTerminal } from './terminal';
import { CITIES, rng, type City } from './vehicle';

export interface HistoryOptions {
  host: string;
  port: number;
  terminals: FleetTerminal[];
  days: number;
  /** The history ends here (epoch ms; default now). */
  until?: number;
  /** Offset of the fleet's local time from UTC, minutes (default 480: Asia/Shanghai). */
  tzOffsetMinutes?: number;
  log?: (progress: HistoryProgress) => void;
  /** Checked between days: true stops the upload (server shutting down). */
  stopped?: () => boolean;
}

export interface HistoryProgress {
  day: number;
  days: number;
  positions: number;
}

const BATCH_ITEMS = 8;
const DAY_MS = 86_400_000;
const TANK_L = 400;

/**
 * One working day's legs from local midnight: out in the morning, a few delivery runs with stops
 * (now and then idling in traffic), a lunch break, back to the depot, parked overnight. Sundays
 * are mostly rest days. Refuels when the tank runs low; rarely a suspected drain at night.
 */
export function workingDay(seed: number, weekday: number, fuelL: number, city: Pick<City, 'inland'>): Leg[] {
  const random = rng(seed);
  const between = (a: number, b: number) => a + random() * (b - a);
  if (weekday === 0 && random() < 0.7) return [{ kind: 'park', minutes: 1440 }];
  const legs: Leg[] = [];
  let minutes = Math.round(between(6.5 * 60, 9 * 60));
  legs.push({ kind: 'park', minutes });
  // Drawn apart, so the ordinary days stay what they were: now and then a long haul out of town
  // and back (over four hours at the wheel, above town speeds), now and then a trouble code.
  const rare = rng(seed * 31 + 5);
  if (weekday !== 0 && rare() < 0.12) {
    const heading = city.inland[Math.floor(rare() * 4) % city.inland.length];
    // Each haul its own length: a customer 270 to 350 km away, driven at 65 to 80 km/h.
    return longHaul(minutes, heading, 245 + Math.floor(rare() * 40), 65 + Math.floor(rare() * 16), fuelL, legs);
  }
  const dtc = rare() < 0.1 ? [DTCS[Math.floor(rare() * DTCS.length)]] : undefined;
  const runs = 2 + Math.floor(random() * 4);
  let heading = Math.floor(random() * 4) * 90 + between(-20, 20);
  let fuel = fuelL;
  for (let i = 0; i < runs && minutes < 18 * 60; i++) {
    const outbound = Math.round(between(20, 60));
    const kmh = Math.round(between(25, 60));
    legs.push({ kind: 'drive', minutes: outbound, kmh, heading: (heading + 360) % 360, ...(dtc && i === 0 ? { dtcs: dtc } : {}) });
    fuel -= ((kmh * outbound) / 60) * 0.3;
    minutes += outbound;
    if (random() < 0.4) {
      const idle = Math.round(between(1, 4));
      legs.push({ kind: 'idle', minutes: idle }, { kind: 'drive', minutes: 10, kmh, heading: (heading + 90) % 360 });
      minutes += idle + 10;
    }
    const stay = Math.round(i === 1 ? between(50, 80) : between(10, 90));
    const refuel = fuel < TANK_L * 0.3 ? Math.round(TANK_L * 0.9 - fuel) : 0;
    legs.push({ kind: 'park', minutes: stay, ...(refuel ? { refuelL: refuel } : {}) });
    fuel += refuel;
    minutes += stay;
    heading += between(120, 240); // roughly back towards the depot
  }
  const night = 1440 - minutes;
  legs.push({ kind: 'park', minutes: night, ...(random() < 0.03 && fuel > 100 ? { drainL: Math.round(between(25, 40)) } : {}) });
  return legs;
}

/** Trouble codes a demo day may show (the live fleet draws from the same kind). */
export const DTCS = ['P0420', 'P0171', 'P0128'];

/** A long haul: out for over four hours at highway speed, a break, and the same way back. */
function longHaul(startMinutes: number, heading: number, driveMinutes: number, kmh: number, fuelL: number, legs: Leg[]): Leg[] {
  const refuel = Math.max(0, Math.round(TANK_L * 0.9 - fuelL));
  legs.push({ kind: 'drive', minutes: driveMinutes, kmh, heading, outOfTown: true });
  legs.push({ kind: 'park', minutes: 60, ...(refuel ? { refuelL: refuel } : {}) });
  legs.push({ kind: 'drive', minutes: driveMinutes, kmh, heading: (heading + 180) % 360, outOfTown: true });
  legs.push({ kind: 'park', minutes: 1440 - startMinutes - 2 * driveMinutes - 60 });
  return legs;
}

/** The reports of one terminal's history, one array per day, oldest first. */
export function historyDays(
  index: number,
  terminal: FleetTerminal,
  opts: Pick<HistoryOptions, 'days' | 'until' | 'tzOffsetMinutes'>,
): LocationInput[][] {
  const until = opts.until ?? Date.now();
  const offset = (opts.tzOffsetMinutes ?? 480) * 60_000;
  const todayStart = Math.floor((until + offset) / DAY_MS) * DAY_MS - offset;
  const city = terminal.city ?? CITIES[index % CITIES.length];
  const random = rng(index * 7919 + 17);
  const state: ScriptState = {
    time: todayStart - opts.days * DAY_MS,
    latitude: city.latitude + (random() - 0.5) * 0.1,
    longitude: city.longitude + (random() - 0.5) * 0.1,
    odometerKm: 20_000 + Math.floor(random() * 80_000),
    fuelL: 150 + random() * 200,
  };
  const depot = { latitude: state.latitude, longitude: state.longitude };
  // Runs about town stay in its streets (on land); only a long haul leaves.
  const script: ScriptOptions = {
    driveEveryS: 60,
    parkEveryS: 600,
    fuelPerKm: 0.3,
    town: { latitude: city.latitude, longitude: city.longitude, radiusKm: city.radiusKm },
  };
  const out: LocationInput[][] = [];
  for (let d = 0; d <= opts.days && state.time < until; d++) {
    const weekday = new Date(state.time + offset).getUTCDay();
    const legs = homeAtNight(workingDay(index * 100_003 + d * 31 + 7, weekday, state.fuelL, city), state, depot, script);
    out.push(playLegs(state, legs, script).filter((r) => Number(r.time) < until));
  }
  return out;
}

/**
 * The day's legs ending back at the depot: the runs' headings only roughly return, and a month of
 * such days would wander off town (into the sea, beside Shanghai and Shenzhen). Before the night
 * the vehicle drives straight home at town speed, out of the night's park.
 */
function homeAtNight(legs: Leg[], from: ScriptState, depot: { latitude: number; longitude: number }, script: ScriptOptions): Leg[] {
  const night = legs[legs.length - 1];
  if (legs.length < 2 || night.kind !== 'park') return legs;
  // Where the day's runs end: played on a copy, which plays nothing out.
  const end = { ...from };
  playLegs(end, legs.slice(0, -1), script);
  const north = (depot.latitude - end.latitude) * KM_PER_DEG_LAT;
  const east = (depot.longitude - end.longitude) * KM_PER_DEG_LAT * Math.cos((end.latitude * Math.PI) / 180);
  const km = Math.hypot(north, east);
  const kmh = 40;
  const minutes = Math.round((km / kmh) * 60);
  if (minutes < 2 || minutes >= night.minutes) return legs;
  const heading = ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360;
  return [
    ...legs.slice(0, -1),
    { kind: 'drive', minutes, kmh: Math.round((km / minutes) * 600) / 10, heading },
    { ...night, minutes: night.minutes - minutes },
  ];
}

const KM_PER_DEG_LAT = 111.32;

/** Uploads every terminal's history through the gateway; resolves once all of it is acknowledged. */
export async function playHistory(opts: HistoryOptions): Promise<{ positions: number }> {
  const perTerminal = opts.terminals.map((t, i) => historyDays(i, t, opts));
  const days = Math.max(0, ...perTerminal.map((d) => d.length));
  let positions = 0;
  const terminals = opts.terminals.map(
    (t) => new SimTerminal({ host: opts.host, port: opts.port, phone: t.phone, version: t.version, ackTimeoutMs: 30_000 }),
  );
  try {
    await Promise.all(terminals.map((t) => t.connect()));
    for (let day = 0; day < days && !opts.stopped?.(); day++) {
      await Promise.all(
        terminals.map(async (t, i) => {
          const reports = perTerminal[i][day] ?? [];
          for (let k = 0; k < reports.length; k += BATCH_ITEMS) t.reportBatch(reports.slice(k, k + BATCH_ITEMS), true);
          const card = opts.terminals[i].card;
          if (card) for (const e of dayCardEvents(reports, card)) t.cardEvent(e);
          positions += reports.length;
          await t.drain(120_000).catch((err: unknown) => {
            if (!opts.stopped?.()) throw err;
          });
        }),
      );
      opts.log?.({ day: day + 1, days, positions });
    }
  } finally {
    await Promise.all(terminals.map((t) => t.logout()));
  }
  return { positions };
}
