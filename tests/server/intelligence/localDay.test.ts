import { dayStart, localDay, localDaysOf, zoneOffsetMinutes } from '../../../server/intelligence/localDay';

/** Intl's own answer, as zoneOffsetMinutes gave it before it remembered hours. */
function intlOffset(ms: number, timeZone: string): number {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
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

describe('zone offsets remembered per hour', () => {
  // Spring forward and fall back in New York, Lord Howe's half-hour change, and a zone without DST.
  const cases: Array<[string, string]> = [
    ['America/New_York', '2026-03-08T05:00:00Z'],
    ['America/New_York', '2026-11-01T04:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T14:00:00Z'],
    ['Asia/Shanghai', '2026-11-10T16:00:00Z'],
  ];

  it.each(cases)('answers as Intl does, every 7 seconds for four hours around a change in %s', (zone, around) => {
    const t0 = Date.parse(around) - 2 * 3_600_000;
    for (let t = t0; t < t0 + 4 * 3_600_000; t += 7_000) expect([t, zoneOffsetMinutes(t, zone)]).toEqual([t, intlOffset(t, zone)]);
  });

  it('gives the local days and midnights across the change', () => {
    expect(localDay(Date.parse('2026-11-01T03:59:59Z'), 'America/New_York')).toBe('2026-10-31');
    expect(localDay(Date.parse('2026-11-01T04:00:00Z'), 'America/New_York')).toBe('2026-11-01');
    expect(dayStart('2026-11-02', 'America/New_York')).toBe(Date.parse('2026-11-02T05:00:00Z'));
    expect(dayStart('2026-11-11', 'Asia/Shanghai')).toBe(Date.parse('2026-11-10T16:00:00Z'));
  });

  it.each(cases)('tells the days of many reports in time order as localDay does each, around a change in %s', (zone, around) => {
    const t0 = Date.parse(around) - 30 * 3_600_000;
    const each = (ts: number[]) => new Set(ts.map((t) => localDay(t, zone)));
    const items = (ts: number[]) => ts.map((time) => ({ time }));
    const times = Array.from({ length: 2000 }, (_, i) => t0 + i * 97_000);
    expect([...localDaysOf(items(times), zone)]).toEqual([...each(times)]);
    expect(localDaysOf(items(times), zone).size).toBeGreaterThanOrEqual(3);
    // Sparse and dense stretches, repeated instants, a report on each side of every midnight.
    const midnights = [...each(times)].map((d) => dayStart(d, zone));
    const mixed = [
      ...times.filter((_, i) => i % 50 === 0),
      ...times.slice(700, 720),
      ...midnights,
      ...midnights.map((m) => m - 1),
      times[3],
    ].sort((a, b) => a - b);
    expect([...localDaysOf(items(mixed), zone)]).toEqual([...each(mixed)]);
    // One report per day, days apart.
    const sparse = [t0, t0 + 3 * 86_400_000, t0 + 9 * 86_400_000];
    expect([...localDaysOf(items(sparse), zone)]).toEqual([...each(sparse)]);
    expect(localDaysOf([], zone).size).toBe(0);
  });
});
