/** The order schedule's calendar: one row per driver, one column per day, each cell that day's shifts. */

import type { ScheduleRow } from '../../services/team';

export interface CalendarRow {
  driverId: number;
  driverName: string;
  /** The driver's schedule rows by local day. */
  days: Record<string, ScheduleRow[]>;
}

/** The days from `begin` to `end`, both included ('YYYY-MM-DD'). */
export function daysOf(begin: string, end: string): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${begin}T00:00:00Z`), last = Date.parse(`${end}T00:00:00Z`); d <= last; d += 86_400_000)
    out.push(new Date(d).toISOString().slice(0, 10));
  return out;
}

export function calendarOf(rows: readonly ScheduleRow[]): CalendarRow[] {
  const byDriver = new Map<number, CalendarRow>();
  for (const r of rows) {
    const c = byDriver.get(r.driverId) ?? { driverId: r.driverId, driverName: r.driverName, days: {} };
    (c.days[r.date] ??= []).push(r);
    byDriver.set(r.driverId, c);
  }
  return [...byDriver.values()].sort((a, b) => a.driverName.localeCompare(b.driverName) || a.driverId - b.driverId);
}

/** A scheduled shift's state that day: driven, not driven yet (today or later), or not driven. */
export const shiftState = (r: ScheduleRow, today: string): 'driven' | 'pending' | 'idle' =>
  r.tripCount > 0 ? 'driven' : r.date >= today ? 'pending' : 'idle';
