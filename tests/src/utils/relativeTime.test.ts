import { formatTimeAgo, timeAgoText, type TimeAgoResult, type TranslateFn } from '../../../src/utils/relativeTime';
import { timeAgoUnits, translateUtil } from '../../../src/utils/timeMessages';

// Fixed clock built in local time, so month/day/hour expectations are TZ independent.
const NOW = new Date(2024, 5, 15, 12, 0, 0).getTime();
const ago = (seconds: number): number => NOW - seconds * 1000;
const zh: TranslateFn = (key, values) => translateUtil('zh-CN', key, values);
const en: TranslateFn = (key, values) => translateUtil('en-US', key, values);

describe('formatTimeAgo', () => {
  it.each<[number, TimeAgoResult]>([
    [0, { key: 'time.justNow' }],
    [29, { key: 'time.justNow' }],
    [30, { key: 'time.minutesAgo', values: { n: 1 } }],
    [60, { key: 'time.minutesAgo', values: { n: 1 } }],
    [61, { key: 'time.minutesAgo', values: { n: 2 } }],
    [3599, { key: 'time.minutesAgo', values: { n: 60 } }],
    [3600, { key: 'time.hoursAgo', values: { n: 1 } }],
    [3601, { key: 'time.hoursAgo', values: { n: 2 } }],
    [86399, { key: 'time.hoursAgo', values: { n: 24 } }],
    [86400, { key: 'time.oneDayAgo' }],
    [172799, { key: 'time.oneDayAgo' }],
  ])('%i s ago → %j', (seconds, expected) => {
    expect(formatTimeAgo(ago(seconds), undefined, NOW)).toEqual(expected);
  });

  it('switches to month/day/hour/minute at exactly 172800 s', () => {
    // 2 days before 2024-06-15 12:00 local, minus 7 minutes more to exercise padding.
    const t = new Date(2024, 5, 13, 11, 53, 0).getTime();
    expect(formatTimeAgo(ago(172800), undefined, NOW)).toEqual({
      key: 'time.monthDayTime',
      values: { month: 6, day: 13, hour: 12, minute: 0, mm: '00' },
    });
    const r = formatTimeAgo(t, undefined, NOW);
    expect(r).toEqual({ key: 'time.monthDayTime', values: { month: 6, day: 13, hour: 11, minute: 53, mm: '53' } });
    expect(r && timeAgoText(r, zh)).toBe('6月13日11时53分');
    expect(r && timeAgoText(r, en)).toBe('6/13 11:53');
  });

  it('uses the pattern beyond two days when one is given', () => {
    const t = new Date(2024, 0, 7, 8, 4, 0).getTime();
    expect(formatTimeAgo(t, '{y}-{m}-{d} {a}', NOW)).toEqual({ text: '2024-01-07 日' });
    // A pattern does not affect the recent buckets.
    expect(formatTimeAgo(ago(10), '{y}', NOW)).toEqual({ key: 'time.justNow' });
  });

  it('accepts 10-digit second timestamps and date strings', () => {
    expect(formatTimeAgo(ago(120) / 1000, undefined, NOW)).toEqual({ key: 'time.minutesAgo', values: { n: 2 } });
    expect(formatTimeAgo(String(ago(7200) / 1000), undefined, NOW)).toEqual({ key: 'time.hoursAgo', values: { n: 2 } });
    expect(formatTimeAgo('2024-06-15 11:00:00', undefined, NOW)).toEqual({ key: 'time.hoursAgo', values: { n: 1 } });
    expect(formatTimeAgo(new Date(ago(45)), undefined, NOW)).toEqual({ key: 'time.minutesAgo', values: { n: 1 } });
  });

  it('treats future times as just now and invalid input as null', () => {
    expect(formatTimeAgo(NOW + 3_600_000, undefined, NOW)).toEqual({ key: 'time.justNow' });
    expect(formatTimeAgo('garbage', undefined, NOW)).toBeNull();
    expect(formatTimeAgo(null, undefined, NOW)).toBeNull();
  });

  it('defaults now to the current clock', () => {
    // Only checks the default is wired; no wall-clock-dependent value is asserted.
    expect(formatTimeAgo(Date.now() + 60_000)).toEqual({ key: 'time.justNow' });
  });
});

describe('timeAgoText', () => {
  it('renders Chinese labels through the translator', () => {
    const text = (s: number): string => {
      const r = formatTimeAgo(ago(s), undefined, NOW);
      if (!r) throw new Error('unexpected null');
      return timeAgoText(r, zh);
    };
    expect(text(5)).toBe('刚刚');
    expect(text(90)).toBe('2分钟前');
    expect(text(5000)).toBe('2小时前');
    expect(text(100000)).toBe('1天前');
  });

  it('passes key and values to the translator and text through untouched', () => {
    const calls: unknown[] = [];
    const spy: TranslateFn = (key, values) => {
      calls.push([key, values]);
      return 'x';
    };
    expect(timeAgoText({ key: 'time.hoursAgo', values: { n: 3 } }, spy)).toBe('x');
    expect(calls).toEqual([['time.hoursAgo', { n: 3 }]]);
    expect(timeAgoText({ text: '2024-01-01' }, spy)).toBe('2024-01-01');
    expect(calls).toHaveLength(1);
  });

  it('exposes the time-ago units in seconds', () => {
    expect(timeAgoUnits).toEqual({ minutes: 60, hours: 3600, days: 86400 });
  });
});
