/**
 * Local days in the fleet's time zone (FLEET_TIMEZONE): the day an instant falls on, and the
 * instant a local day starts. Intl only, so any IANA zone works, DST included.
 */

import { firstAtOrAfter } from './deriver';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Minutes the zone is ahead of UTC at an instant, asked of Intl (slow: a formatToParts per call). */
function offsetByIntl(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const HOUR_MS = 3_600_000;
/** Per zone and UTC hour, the offset throughout that hour; null when it changes inside the hour. */
const hourOffsets = new Map<string, Map<number, number | null>>();
/** Hours remembered per zone before starting over (about eleven years of hours). */
const MAX_HOURS = 100_000;

/**
 * Minutes the zone is ahead of UTC at an instant. Derivers ask it for every report (local days,
 * night driving), so the answer is remembered per UTC hour when the offset is the same at both ends
 * of the hour (zones change offset months apart, never twice within an hour); an hour with a change
 * in it is asked of Intl each time.
 */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  if (!Number.isFinite(ms)) return offsetByIntl(ms, timeZone);
  let hours = hourOffsets.get(timeZone);
  if (!hours) hourOffsets.set(timeZone, (hours = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  let known = hours.get(hour);
  if (known === undefined) {
    if (hours.size >= MAX_HOURS) hours.clear();
    const first = offsetByIntl(hour * HOUR_MS, timeZone);
    known = first === offsetByIntl(hour * HOUR_MS + HOUR_MS - 1, timeZone) ? first : null;
    hours.set(hour, known);
  }
  return known ?? offsetByIntl(ms, timeZone);
}

/** 'YYYY-MM-DD' of the local day an instant falls on. */
export function localDay(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 10);
}

/** The instant (epoch ms) a local day ('YYYY-MM-DD') starts. */
export function dayStart(day: string, timeZone: string): number {
  const guess = Date.parse(day + 'T00:00:00Z');
  // The offset at the guess, then once more at the corrected instant (a DST change near midnight).
  let t = guess - zoneOffsetMinutes(guess, timeZone) * 60_000;
  t = guess - zoneOffsetMinutes(t, timeZone) * 60_000;
  return t;
}

/** The local day after `day`. */
export function nextDay(day: string): string {
  return new Date(Date.parse(day + 'T00:00:00Z') + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The local days the items of a list in time order fall on (a window's reports). The derivers ask
 * it of every window of a pass, and a window runs back to the start of an open trip, so each day
 * costs a localDay and a binary search for the next day's first item, not a look at every item.
 */
export function localDaysOf(items: ReadonlyArray<{ time: number }>, timeZone: string): Set<string> {
  const days = new Set<string>();
  for (let i = 0; i < items.length;) {
    const t = items[i].time;
    const day = localDay(t, timeZone);
    days.add(day);
    i = Number.isFinite(t) ? Math.max(i + 1, firstAtOrAfter(items, dayStart(nextDay(day), timeZone))) : i + 1;
  }
  return days;
}
