/** Service periods are ISO dates (YYYY-MM-DD), compared in the browser's own calendar. */

const pad = (n: number) => String(n).padStart(2, '0');
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today in the user's time zone, as an ISO date. */
export const localToday = (now: Date = new Date()): string => `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

const isoDate = (v: unknown): string | null => (typeof v === 'string' && ISO_DATE.test(v.slice(0, 10)) ? v.slice(0, 10) : null);

/** SPEC §2 "table link cells": a service end before today is expired (ending today is not yet). */
export function isExpired(serviceEnd: unknown, today: string): boolean {
  const end = isoDate(serviceEnd);
  return end !== null && end < today;
}

const dayNumber = (iso: string) => Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000;

/** Whole days from the service end to today (0 when not expired or unknown). */
export function daysExpired(serviceEnd: unknown, today: string): number {
  const end = isoDate(serviceEnd);
  return end && end < today ? dayNumber(today) - dayNumber(end) : 0;
}

/** One year on from today, or from the current end when it lies ahead: the renewal form's proposal. */
export function proposedEnd(serviceEnd: unknown, today: string): string {
  const end = isoDate(serviceEnd);
  const from = end && end > today ? end : today;
  const [y, m, d] = [+from.slice(0, 4) + 1, +from.slice(5, 7), +from.slice(8, 10)];
  // 29 February has no twin next year: the day before the first of March.
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${pad(m)}-${pad(Math.min(d, last))}`;
}
