/**
 * Quiet hours of a notification rule: 'HH:MM' to 'HH:MM' in the fleet's time zone, end excluded;
 * a start after the end spans midnight (22:00–07:00). Both unset (or equal) means never quiet.
 */

import { zoneOffsetMinutes } from '../intelligence/localDay';

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function inQuietHours(start: string | null, end: string | null, atMs: number, timeZone: string): boolean {
  if (!start || !end || start === end) return false;
  const local = Math.floor((atMs + zoneOffsetMinutes(atMs, timeZone) * 60_000) / 60_000) % 1440;
  const s = minutesOf(start);
  const e = minutesOf(end);
  return s < e ? local >= s && local < e : local >= s || local < e;
}
