/**
 * When a maintenance schedule falls due for one vehicle: each trigger (kilometres, engine hours,
 * calendar days) counts from the vehicle's last service under the schedule, and whichever comes
 * first decides. Due once the remainder is inside the warning window, overdue once it is used up.
 * Pure: usage in, status out.
 */

import { DUE_STATES, DUE_TRIGGERS } from '../../schemas/kit/maintenanceStatus';

export { DUE_STATES, DUE_TRIGGERS };
export type DueState = (typeof DUE_STATES)[number];
export type DueTrigger = (typeof DUE_TRIGGERS)[number];

export interface ScheduleIntervals {
  intervalKm: number | null;
  intervalHours: number | null;
  intervalDays: number | null;
  warnKm: number | null;
  warnHours: number | null;
  warnDays: number | null;
}

/** What the vehicle used since its last service under the schedule (null: not known). */
export interface UsageSince {
  km: number | null;
  hours: number | null;
  days: number;
}

export interface DueStatus {
  state: DueState;
  /** The trigger that decided (the one nearest its limit), null when the schedule has none it can measure. */
  trigger: DueTrigger | null;
  remainingKm: number | null;
  remainingHours: number | null;
  remainingDays: number | null;
}

const RANK: Record<DueState, number> = { ok: 0, due: 1, overdue: 2 };

/** Whether a schedule has anything to count (a schedule with no trigger is refused on write). */
export const hasTrigger = (s: Pick<ScheduleIntervals, 'intervalKm' | 'intervalHours' | 'intervalDays'>): boolean =>
  s.intervalKm != null || s.intervalHours != null || s.intervalDays != null;

export function dueStatus(s: ScheduleIntervals, used: UsageSince): DueStatus {
  const round = (n: number) => Math.round(n * 10) / 10;
  const parts: Array<{ trigger: DueTrigger; remaining: number; interval: number; warn: number }> = [];
  const add = (trigger: DueTrigger, interval: number | null, warn: number | null, usage: number | null) => {
    if (interval == null || usage == null) return;
    parts.push({ trigger, remaining: interval - usage, interval, warn: warn ?? 0 });
  };
  add('km', s.intervalKm, s.warnKm, used.km);
  add('hours', s.intervalHours, s.warnHours, used.hours);
  add('days', s.intervalDays, s.warnDays, used.days);
  let best: { state: DueState; trigger: DueTrigger; share: number } | null = null;
  for (const p of parts) {
    const state: DueState = p.remaining <= 0 ? 'overdue' : p.remaining <= p.warn ? 'due' : 'ok';
    // Among equal states, the trigger with the smallest share of its interval left comes first.
    const share = p.remaining / p.interval;
    if (!best || RANK[state] > RANK[best.state] || (RANK[state] === RANK[best.state] && share < best.share))
      best = { state, trigger: p.trigger, share };
  }
  const remaining = (t: DueTrigger) => {
    const p = parts.find((x) => x.trigger === t);
    return p ? round(p.remaining) : null;
  };
  return {
    state: best?.state ?? 'ok',
    trigger: best?.trigger ?? null,
    remainingKm: remaining('km'),
    remainingHours: remaining('hours'),
    remainingDays: remaining('days'),
  };
}
