/** Time and date ranges of report bodies, checked the same way everywhere (400 with a field error). */

import { invalid } from '../platform/http/errors';
import { dayStart, localDay, nextDay } from '../intelligence/localDay';

/** Longest range a report reads: a year of days, or of track. */
export const MAX_RANGE_DAYS = 366;

const fieldError = (field: string, key: string, params: Record<string, string | number> = {}) =>
  invalid([{ field, key, params, labelKey: `reports.fields.${field.split('.').pop()}` }]);

/** An instant range [begin, end] from ISO strings; end after begin, at most MAX_RANGE_DAYS long. */
export function timeRange(begin: string, end: string, prefix = ''): { from: number; to: number } {
  const from = Date.parse(begin);
  const to = Date.parse(end);
  if (!(to > from)) throw fieldError(prefix + 'end', 'reports.endBeforeBegin');
  if (to - from > MAX_RANGE_DAYS * 86_400_000) throw fieldError(prefix + 'end', 'reports.rangeTooLong', { limit: MAX_RANGE_DAYS });
  return { from, to };
}

/** A local-day range [begin, end] (both inclusive, 'YYYY-MM-DD'); the instants it covers too. */
export function dayRange(
  begin: string,
  end: string,
  timeZone: string,
  prefix = 'criteria.',
): { begin: string; end: string; from: number; to: number } {
  if (end < begin) throw fieldError(prefix + 'end', 'reports.endBeforeBegin');
  const from = dayStart(begin, timeZone);
  const to = dayStart(nextDay(end), timeZone);
  if (to - from > (MAX_RANGE_DAYS + 1) * 86_400_000) throw fieldError(prefix + 'end', 'reports.rangeTooLong', { limit: MAX_RANGE_DAYS });
  return { begin, end, from, to };
}

/** The `criteria` of a `{criteria: {begin, end, …}}` body (ledger, behaviour, health), its day range checked. */
export function dayCriteria<C extends { begin: string; end: string }>(body: unknown, timeZone: string): C & { from: number; to: number } {
  const c = (body as { criteria: C }).criteria;
  return { ...c, ...dayRange(c.begin, c.end, timeZone) };
}

/** Today's local day and the first day of its month. */
export function today(timeZone: string, now = Date.now()): { day: string; monthStart: string } {
  const day = localDay(now, timeZone);
  return { day, monthStart: day.slice(0, 8) + '01' };
}

/** The local day `n` days before `day`. */
export function daysBefore(day: string, n: number): string {
  return new Date(Date.parse(day + 'T00:00:00Z') - n * 86_400_000).toISOString().slice(0, 10);
}
