import { DEFAULT_TIME_PATTERN, WEEKDAY_CHARS, parseTime, toDate } from '../../../src/utils/formatTime';

// All expectations are built from local-time constructors so they hold in any machine TZ.
// 2024-01-07 is a Sunday.
const SUNDAY = new Date(2024, 0, 7, 9, 5, 3, 0);
const SUNDAY_MS = SUNDAY.getTime();
const SUNDAY_S = SUNDAY_MS / 1000;

describe('parseTime', () => {
  it('formats a Date with the default zero-padded pattern', () => {
    expect(DEFAULT_TIME_PATTERN).toBe('{y}-{m}-{d} {h}:{i}:{s}');
    expect(parseTime(SUNDAY)).toBe('2024-01-07 09:05:03');
  });

  it('formats custom patterns and leaves unknown tokens alone', () => {
    expect(parseTime(new Date(2023, 11, 31, 23, 59, 58), '{y}/{m}/{d} {h}{i}{s}')).toBe('2023/12/31 235958');
    expect(parseTime(SUNDAY, '{y}年{m}月{d}日 星期{a} {x}')).toBe('2024年01月07日 星期日 {x}');
  });

  it('maps weekdays Sunday first', () => {
    expect(WEEKDAY_CHARS.join('')).toBe('日一二三四五六');
    const days = Array.from({ length: 7 }, (_, k) => parseTime(new Date(2024, 0, 7 + k, 12), '{a}'));
    expect(days).toEqual(['日', '一', '二', '三', '四', '五', '六']);
  });

  it('treats an exactly 10-digit number or digit string as seconds', () => {
    expect(String(SUNDAY_S)).toHaveLength(10);
    expect(parseTime(SUNDAY_S)).toBe('2024-01-07 09:05:03');
    expect(parseTime(String(SUNDAY_S))).toBe('2024-01-07 09:05:03');
  });

  it('treats 13-digit numbers and digit strings as milliseconds', () => {
    expect(String(SUNDAY_MS)).toHaveLength(13);
    expect(parseTime(SUNDAY_MS)).toBe('2024-01-07 09:05:03');
    expect(parseTime(String(SUNDAY_MS))).toBe('2024-01-07 09:05:03');
  });

  it('treats 9- and 11-digit values as milliseconds, not seconds', () => {
    expect(toDate(999_999_999)?.getTime()).toBe(999_999_999);
    expect(toDate(10_000_000_000)?.getTime()).toBe(10_000_000_000);
    expect(toDate('999999999')?.getTime()).toBe(999_999_999);
    expect(toDate('1000000000')?.getTime()).toBe(1_000_000_000_000);
    expect(toDate(1_000_000_000)?.getTime()).toBe(1_000_000_000_000);
    expect(toDate(9_999_999_999)?.getTime()).toBe(9_999_999_999_000);
  });

  it("parses 'YYYY-MM-DD HH:mm:ss' as local time, with '-' or '/'", () => {
    expect(parseTime('2024-01-07 09:05:03')).toBe('2024-01-07 09:05:03');
    expect(parseTime('2024/1/7 9:05:03')).toBe('2024-01-07 09:05:03');
    expect(toDate('2024-01-07 09:05:03')?.getTime()).toBe(SUNDAY_MS);
    expect(toDate('2024-01-07T09:05:03')?.getTime()).toBe(SUNDAY_MS);
    expect(toDate('2024-01-07 09:05')?.getTime()).toBe(new Date(2024, 0, 7, 9, 5).getTime());
    // Date-only strings are local midnight (the bare Date parser would use UTC).
    expect(toDate('2024-01-07')?.getTime()).toBe(new Date(2024, 0, 7).getTime());
    expect(toDate('2024-01-07 09:05:03.5')?.getMilliseconds()).toBe(500);
  });

  it('parses ISO strings with an explicit zone', () => {
    expect(toDate('2024-01-07T09:05:03Z')?.getTime()).toBe(Date.UTC(2024, 0, 7, 9, 5, 3));
    expect(toDate('2024-01-07T09:05:03+08:00')?.getTime()).toBe(Date.UTC(2024, 0, 7, 1, 5, 3));
  });

  it('returns null for invalid input', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime('   ')).toBeNull();
    expect(parseTime('not a date')).toBeNull();
    expect(parseTime('2024-02-30 10:00:00')).toBeNull();
    expect(parseTime('2024-01-07 24:00:00')).toBeNull();
    expect(parseTime(new Date(Number.NaN))).toBeNull();
    expect(parseTime(Number.NaN)).toBeNull();
    expect(parseTime(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseTime('9'.repeat(30))).toBeNull();
  });

  it('does not hand back the caller’s Date instance', () => {
    const d = toDate(SUNDAY);
    expect(d).not.toBe(SUNDAY);
    expect(d?.getTime()).toBe(SUNDAY_MS);
  });
});
