/** The statistics pages' criteria: a range of local days (SPEC's quick ranges of 7, 30 and 90 days), an organisation, a vehicle. */

export const QUICK_DAYS = [7, 30, 90] as const;
export type QuickDays = (typeof QUICK_DAYS)[number];

export interface StatsCriteria {
  begin: string;
  end: string;
  orgId: number | null;
  vehicleId: number | null;
}

/** 'YYYY-MM-DD' of a local date. */
export const dayOf = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The last `days` days up to and including `today`. */
export function quickRange(days: number, today: Date = new Date()): { begin: string; end: string } {
  const begin = new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
  return { begin: dayOf(begin), end: dayOf(today) };
}

/** Which quick range the criteria are, if any. */
export function quickOf(c: { begin: string; end: string }, today: Date = new Date()): QuickDays | null {
  return (
    QUICK_DAYS.find((n) => {
      const r = quickRange(n, today);
      return r.begin === c.begin && r.end === c.end;
    }) ?? null
  );
}

export const initialCriteria = (days: QuickDays = 7): StatsCriteria => ({ ...quickRange(days), orgId: null, vehicleId: null });
