/**
 * Quick date ranges for range-picker presets (SPEC §9: 7, 30 and 90 days back from now).
 */
import type { RangeMessageKey } from './timeMessages';

export type QuickRangeKind = 'week' | 'month' | 'quarter';

export interface QuickRangeDef {
  readonly kind: QuickRangeKind;
  readonly labelKey: RangeMessageKey;
  readonly days: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const DAYS_BY_KIND: Readonly<Record<QuickRangeKind, number>> = { week: 7, month: 30, quarter: 90 };

/** Preset list in display order; labels are i18n keys (see timeMessages.ts). */
export const QUICK_RANGES: readonly QuickRangeDef[] = [
  { kind: 'week', labelKey: 'range.lastWeek', days: DAYS_BY_KIND.week },
  { kind: 'month', labelKey: 'range.lastMonth', days: DAYS_BY_KIND.month },
  { kind: 'quarter', labelKey: 'range.lastThreeMonths', days: DAYS_BY_KIND.quarter },
];

/**
 * [now − N days, now]. Subtracts a fixed N × 24 h (not calendar days), matching the legacy
 * picker shortcuts; across a DST change the start's wall-clock hour may shift by one.
 * Returns fresh Date objects so callers may mutate them.
 */
export function quickRange(kind: QuickRangeKind, now: Date = new Date()): [Date, Date] {
  const end = now.getTime();
  return [new Date(end - DAYS_BY_KIND[kind] * DAY_MS), new Date(end)];
}
