/**
 * The columns of the daily driving report (statistics/daily): what the console's table shows and
 * what its xlsx export writes, one list for both so the file holds exactly what is on the screen.
 * Labels are message keys (`reports.ledger.*`); durations are shown in hours.
 */

import type { LedgerDayVehicleRow, LedgerFigures } from './ledger';

export type { LedgerDayVehicleRow, LedgerFigures };

export type LedgerTotalsRow = LedgerFigures;

export interface LedgerColumn {
  key: string;
  labelKey: string;
  /** Decimals shown; null for text. */
  digits: number | null;
  /** The cell's value for a row; the totals row has no date or licence. */
  value: (row: Partial<LedgerDayVehicleRow>) => string | number | null;
}

const hours = (s: number | undefined) => (s === undefined ? null : Math.round((s / 3600) * 100) / 100);
const num = (key: keyof LedgerTotalsRow, digits: number): LedgerColumn => ({
  key,
  labelKey: `reports.ledger.${key}`,
  digits,
  value: (r) => r[key] ?? null,
});

export const LEDGER_COLUMNS: readonly LedgerColumn[] = [
  { key: 'date', labelKey: 'reports.ledger.date', digits: null, value: (r) => r.date ?? null },
  { key: 'licence', labelKey: 'reports.ledger.licence', digits: null, value: (r) => r.licence ?? null },
  num('mileageKm', 1),
  num('fuelL', 2),
  num('refuelL', 2),
  num('drainL', 2),
  { key: 'drivingH', labelKey: 'reports.ledger.drivingH', digits: 2, value: (r) => hours(r.drivingS) },
  { key: 'idleH', labelKey: 'reports.ledger.idleH', digits: 2, value: (r) => hours(r.idleS) },
  num('tripCount', 0),
  num('maxSpeed', 0),
  num('cost', 2),
];
