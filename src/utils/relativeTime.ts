/**
 * "N minutes ago" style relative time (SPEC §9 "Relative time").
 * Returns a structured result rather than text so the caller's i18n layer picks the language.
 */
import { parseTime, toDate, type TimeInput } from './formatTime';
import { timeAgoUnits, type MessageValues, type TimeAgoKey } from './timeMessages';

export type TimeAgoResult =
  | { key: 'time.justNow' | 'time.oneDayAgo'; values?: undefined }
  | { key: 'time.minutesAgo' | 'time.hoursAgo'; values: { n: number } }
  | {
      key: 'time.monthDayTime';
      // `mm` is the two-digit minute for clock-style locales; zh/ja use the bare `minute`.
      values: { month: number; day: number; hour: number; minute: number; mm: string };
    }
  | { text: string };

/** Translate function shape; umi's `intl.formatMessage` adapts as `(k, v) => formatMessage({ id: k }, v)`. */
export type TranslateFn = (key: TimeAgoKey | 'time.monthDayTime', values?: MessageValues) => string;

const JUST_NOW_SECONDS = 30;
const { hours: HOUR, days: DAY } = timeAgoUnits;

/**
 * Describes how long ago `time` was relative to `now` (ms epoch, injectable for tests).
 * Future times count as "just now", as the legacy console did. Unreadable input → null.
 */
export function formatTimeAgo(time: TimeInput, pattern?: string, now: number = Date.now()): TimeAgoResult | null {
  const date = toDate(time);
  if (!date) return null;
  const diff = (now - date.getTime()) / 1000;
  if (diff < JUST_NOW_SECONDS) return { key: 'time.justNow' };
  if (diff < HOUR) return { key: 'time.minutesAgo', values: { n: Math.ceil(diff / timeAgoUnits.minutes) } };
  if (diff < DAY) return { key: 'time.hoursAgo', values: { n: Math.ceil(diff / HOUR) } };
  if (diff < 2 * DAY) return { key: 'time.oneDayAgo' };
  if (pattern) {
    // toDate already succeeded, so parseTime cannot return null here.
    return { text: parseTime(date, pattern) ?? '' };
  }
  const minute = date.getMinutes();
  return {
    key: 'time.monthDayTime',
    values: {
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: date.getHours(),
      minute,
      mm: String(minute).padStart(2, '0'),
    },
  };
}

/** Renders a result with the caller's translator; pre-formatted text passes through. */
export function timeAgoText(result: TimeAgoResult, t: TranslateFn): string {
  if ('text' in result) return result.text;
  return t(result.key, result.values);
}
