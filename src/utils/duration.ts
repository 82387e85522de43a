/**
 * A length of time as people read it: minutes below an hour, hours and minutes below a day, days
 * and hours beyond ("1 天 20 小时", never "2667 分钟"). Structured like relativeTime so the caller's
 * translator picks the language.
 */
export type DurationText =
  | { key: 'console.duration.minutes'; values: { m: number } }
  | { key: 'console.duration.hoursMinutes'; values: { h: number; m: number } }
  | { key: 'console.duration.daysHours'; values: { d: number; h: number } };

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `seconds` (negative or not a number reads as 0) rounded to the unit the result shows last. */
export function durationText(seconds: number): DurationText {
  const s = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  if (s < HOUR - MINUTE / 2) return { key: 'console.duration.minutes', values: { m: Math.round(s / MINUTE) } };
  if (s < DAY - HOUR / 2) {
    const minutes = Math.round(s / MINUTE);
    return { key: 'console.duration.hoursMinutes', values: { h: Math.floor(minutes / 60), m: minutes % 60 } };
  }
  const hours = Math.round(s / HOUR);
  return { key: 'console.duration.daysHours', values: { d: Math.floor(hours / 24), h: hours % 24 } };
}

/** The same, rendered by a translator. */
export const formatDuration = (seconds: number, t: (key: string, values: Record<string, number>) => string): string => {
  const d = durationText(seconds);
  return t(d.key, d.values);
};
