/**
 * When a scheduled report is due and what it covers, in local days of the fleet's zone
 * (FLEET_TIMEZONE, the zone the ledger's days are counted in): a schedule fires at its local time on
 * every day (daily), on its weekday (weekly, 1 Monday … 7 Sunday) or on its day of the month
 * (monthly, 1–28), and covers the previous complete day, week (Monday to Sunday) or calendar month
 * before the day it fires on.
 */

import { localDay, zoneOffsetMinutes } from '../intelligence/localDay';

export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface Timing {
  frequency: Frequency;
  weekday: number | null;
  monthDay: number | null;
  /** 'HH:mm', local. */
  sendTime: string;
}

/** A range of local days, both inclusive ('YYYY-MM-DD'). */
export interface Period {
  begin: string;
  end: string;
}

const DAY_MS = 86_400_000;
/** Days looked back for the latest firing: a month and a day covers every monthly day. */
const LOOK_BACK_DAYS = 32;

const addDays = (day: string, n: number) => new Date(Date.parse(day + 'T00:00:00Z') + n * DAY_MS).toISOString().slice(0, 10);
/** 1 Monday … 7 Sunday. */
const isoWeekday = (day: string) => ((new Date(day + 'T00:00:00Z').getUTCDay() + 6) % 7) + 1;

/** The instant (epoch ms) of a local wall time on a local day; the offset looked up twice, as dayStart does across a DST change. */
export function localTime(day: string, hhmm: string, timeZone: string): number {
  const guess = Date.parse(`${day}T${hhmm}:00Z`);
  let t = guess - zoneOffsetMinutes(guess, timeZone) * 60_000;
  t = guess - zoneOffsetMinutes(t, timeZone) * 60_000;
  return t;
}

const firesOn = (t: Timing, day: string): boolean =>
  t.frequency === 'daily' || (t.frequency === 'weekly' ? isoWeekday(day) === t.weekday : Number(day.slice(8)) === t.monthDay);

/** The latest instant at or before `now` the schedule fires at (epoch ms); null when it names no valid day. */
export function latestFiring(t: Timing, timeZone: string, now: number): number | null {
  const today = localDay(now, timeZone);
  for (let i = 0; i <= LOOK_BACK_DAYS; i++) {
    const day = addDays(today, -i);
    if (!firesOn(t, day)) continue;
    const at = localTime(day, t.sendTime, timeZone);
    if (at <= now) return at;
  }
  return null;
}

/** The last complete day, week or month before the local day `day`. */
export function periodBefore(frequency: Frequency, day: string): Period {
  if (frequency === 'daily') {
    const d = addDays(day, -1);
    return { begin: d, end: d };
  }
  if (frequency === 'weekly') {
    const begin = addDays(day, -(isoWeekday(day) - 1) - 7);
    return { begin, end: addDays(begin, 6) };
  }
  const firstOfMonth = day.slice(0, 8) + '01';
  const end = addDays(firstOfMonth, -1);
  return { begin: end.slice(0, 8) + '01', end };
}

/** What a send at `at` covers: the last complete period before its local day. */
export const periodAt = (frequency: Frequency, at: number, timeZone: string): Period => periodBefore(frequency, localDay(at, timeZone));
