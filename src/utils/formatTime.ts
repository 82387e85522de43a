/**
 * Date formatting with `{y}-{m}-{d}`-style patterns (SPEC §9 "Date formatting").
 * Works in local time, as the browser does, so the console shows the operator's wall clock.
 */

/** Anything the API or a form may hand us as a point in time. */
export type TimeInput = Date | number | string | null | undefined;

export const DEFAULT_TIME_PATTERN = '{y}-{m}-{d} {h}:{i}:{s}';

/** Weekday characters for `{a}`, Sunday first to match `Date#getDay()`. */
export const WEEKDAY_CHARS = ['日', '一', '二', '三', '四', '五', '六'] as const;

// 'YYYY-MM-DD', 'YYYY/MM/DD', optionally followed by ' HH:mm[:ss[.SSS]]' (or 'T').
// Parsed by hand because `new Date('2024-01-02')` is UTC while the API means local time.
const LOCAL_DATE_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3}))?)?)?$/;

const DIGITS_RE = /^\d+$/;

/** Seconds-vs-milliseconds rule: a timestamp written with exactly 10 digits is in seconds. */
function fromTimestamp(ms: number, tenDigits: boolean): Date | null {
  if (!Number.isFinite(ms)) return null;
  const date = new Date(tenDigits ? ms * 1000 : ms);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parseLocalDateString(text: string): Date | null {
  const m = LOCAL_DATE_RE.exec(text);
  if (!m) return null;
  // Absent time parts (undefined groups) count as 0.
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part)));
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  const date = new Date(y, mo - 1, d, h, mi, s, ms);
  // Reject overflow such as 2024-02-30 or 25:00, which Date would silently roll over.
  const valid =
    date.getFullYear() === y &&
    date.getMonth() === mo - 1 &&
    date.getDate() === d &&
    date.getHours() === h &&
    date.getMinutes() === mi &&
    date.getSeconds() === s;
  return valid ? date : null;
}

/** Normalises any accepted input to a valid Date, or null when it cannot be read. */
export function toDate(value: TimeInput): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : new Date(value.getTime());
  }
  if (typeof value === 'number') {
    // "Exactly 10 digits" for a number means its integer part is 1e9..9999999999.
    const abs = Math.abs(Math.trunc(value));
    return fromTimestamp(value, abs >= 1e9 && abs < 1e10);
  }
  const text = value.trim();
  if (text === '') return null;
  if (DIGITS_RE.test(text)) return fromTimestamp(Number(text), text.length === 10);
  const local = parseLocalDateString(text);
  if (local) return local;
  if (LOCAL_DATE_RE.test(text)) return null; // matched the local shape but was out of range
  // Anything else (ISO with zone, RFC 2822...) goes to the engine's parser.
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Formats `value` with `pattern`. Tokens: {y} year, {m} month, {d} day, {h} hour,
 * {i} minute, {s} second (two digits), {a} Chinese weekday character.
 * Unknown `{...}` tokens are left as written. Returns null for unreadable input.
 */
export function parseTime(value: TimeInput, pattern: string = DEFAULT_TIME_PATTERN): string | null {
  const date = toDate(value);
  if (!date) return null;
  const parts: Record<string, string> = {
    y: String(date.getFullYear()),
    m: pad2(date.getMonth() + 1),
    d: pad2(date.getDate()),
    h: pad2(date.getHours()),
    i: pad2(date.getMinutes()),
    s: pad2(date.getSeconds()),
    a: WEEKDAY_CHARS[date.getDay()],
  };
  return pattern.replace(/\{([ymdhisa])\}/g, (token, key: string) => parts[key] ?? token);
}
