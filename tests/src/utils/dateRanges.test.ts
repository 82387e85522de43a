import { QUICK_RANGES, quickRange } from '../../../src/utils/dateRanges';

const DAY_MS = 86_400_000;
const NOW = new Date(2024, 5, 15, 12, 30, 0);

describe('quickRange', () => {
  it.each([
    ['week', 7],
    ['month', 30],
    ['quarter', 90],
  ] as const)('%s starts %i days before now and ends at now', (kind, days) => {
    const [start, end] = quickRange(kind, NOW);
    expect(end.getTime()).toBe(NOW.getTime());
    expect(NOW.getTime() - start.getTime()).toBe(days * DAY_MS);
  });

  it('returns fresh Date objects and leaves `now` untouched', () => {
    const before = NOW.getTime();
    const [start, end] = quickRange('week', NOW);
    expect(end).not.toBe(NOW);
    end.setFullYear(2000);
    start.setFullYear(2000);
    expect(NOW.getTime()).toBe(before);
  });

  it('defaults to the current time', () => {
    const [start, end] = quickRange('week');
    expect(end.getTime() - start.getTime()).toBe(7 * DAY_MS);
  });
});

describe('QUICK_RANGES', () => {
  it('lists the presets in order with their i18n keys', () => {
    expect(QUICK_RANGES).toEqual([
      { kind: 'week', labelKey: 'range.lastWeek', days: 7 },
      { kind: 'month', labelKey: 'range.lastMonth', days: 30 },
      { kind: 'quarter', labelKey: 'range.lastThreeMonths', days: 90 },
    ]);
  });
});
