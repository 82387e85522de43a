import { firstAtOrAfter, type DeriveObdRecord, type DerivePosition, type TimeRange } from '../deriver';
import { alarmKey, type StoredAlarm } from './store';
import type { AlarmInterval } from './types';

/** The time of the first of these (in time order) at or after `at`; Infinity when none is. */
function firstFrom(items: ReadonlyArray<{ time: number }>, at: number): number {
  return items[firstAtOrAfter(items, at)]?.time ?? Infinity;
}

/**
 * Of the alarms a pass stored anew, those to announce (console, webhooks, SMS): each one a report
 * or OBD record of this pass decided. An alarm whose deciding report (the first at or after the
 * moment it fired) lies before the window's dirty range was there for the last pass to find: it is
 * new only because the settings changed since (a policy added or lowered, a fence drawn), which
 * rebuilds the window's history. It is stored and listed, but not pushed as though it had just
 * happened: an edited policy would otherwise replay hours of a vehicle's past as fresh alarms.
 * Without a dirty range (a rebuild asked for by hand) every one is announced.
 */
export function newlyDecided(
  stored: readonly StoredAlarm[],
  found: readonly AlarmInterval[],
  read: { positions: readonly DerivePosition[]; obdRecords: readonly DeriveObdRecord[] },
  dirty: TimeRange | undefined,
): StoredAlarm[] {
  if (!dirty || !stored.length) return [...stored];
  // One vehicle's alarms: keyed without it.
  const firedAt = new Map(found.map((a) => [alarmKey(0, a.type, a.subject, a.begin), a.firedAt]));
  return stored.filter((a) => {
    const at = firedAt.get(alarmKey(0, a.type, a.subject, a.begin)) ?? a.begin;
    return Math.min(firstFrom(read.positions, at), firstFrom(read.obdRecords, at)) >= dirty.from;
  });
}
