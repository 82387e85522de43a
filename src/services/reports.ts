import type { Bucket, VehicleCounts, VehicleDistribution } from '../../schemas/kit/dashboard';
import type {
  LedgerCriteria,
  LedgerDaily,
  LedgerDayRow,
  LedgerFigures,
  LedgerHome,
  LedgerMonthRow,
  LedgerVehicleRow,
} from '../../schemas/kit/ledger';
import { call } from './http/call';

/** The console's report calls: the dashboard's counts and distribution, the ledger (server/reports). */

export type { Bucket, VehicleCounts, VehicleDistribution };

export type { LedgerCriteria, LedgerDayRow, LedgerFigures, LedgerHome, LedgerMonthRow, LedgerVehicleRow };

const quiet = { quiet: true } as const;
const LEDGER = '/vehicle/dailyDrivingBehavior';

export const vehicleCount = (orgId?: number | null) =>
  call<VehicleCounts>('/vehicle/index/vehicleCount', { method: 'POST', data: { criteria: { orgId: orgId ?? null } }, ...quiet });
export const vehicleDistribution = (orgId?: number | null) =>
  call<VehicleDistribution>('/vehicle/index/vehicleDis', { method: 'POST', data: { criteria: { orgId: orgId ?? null } }, ...quiet });
export const ledgerHome = () => call<LedgerHome>(`${LEDGER}/home`, { method: 'GET', ...quiet });
export const ledgerTop7 = (criteria: LedgerCriteria, by: 'mileage' | 'fuel' = 'mileage') =>
  call<LedgerVehicleRow[]>(`${LEDGER}/Top7`, { method: 'POST', data: { criteria: { ...criteria, by } }, ...quiet });
export const ledgerByDay = (criteria: LedgerCriteria) =>
  call<LedgerDayRow[]>(`${LEDGER}/mileageAndFuelByDay`, { method: 'POST', data: { criteria }, ...quiet });
export const ledgerByMonth = (criteria: LedgerCriteria) =>
  call<LedgerMonthRow[]>(`${LEDGER}/mileageAndFuelByMonth`, { method: 'POST', data: { criteria }, ...quiet });
export const ledgerByVehicle = (criteria: LedgerCriteria) =>
  call<LedgerVehicleRow[]>(`${LEDGER}/mileageAndFuel`, { method: 'POST', data: { criteria }, ...quiet });
export const ledgerTotal = (criteria: LedgerCriteria) =>
  call<LedgerFigures>(`${LEDGER}/total`, { method: 'POST', data: { criteria }, ...quiet });

export type DailyReport = LedgerDaily;

/** The ledger by day and vehicle, with its totals (statistics/daily). */
export const ledgerDaily = (criteria: LedgerCriteria) =>
  call<DailyReport>(`${LEDGER}/mileageAndFuelByDayAndVehicle`, { method: 'POST', data: { criteria }, quiet: true });

/** Where the same rows and totals download as an xlsx, in the table's columns (body: `{criteria}`). */
export const LEDGER_DAILY_EXPORT = `${LEDGER}/mileageAndFuelByDayAndVehicle/export`;

/** Where the ledger per vehicle (the fuel page's table) downloads as an xlsx (body: `{criteria}`). */
export const FUEL_EXPORT = `${LEDGER}/mileageAndFuel/export`;

export interface FuelEvent {
  id: number;
  vehicleId: number;
  licence: string;
  kind: 'refuel' | 'drain';
  time: string;
  amountL: number;
  latitude: number;
  longitude: number;
}

/** Refuels and suspected drains in the range, latest first. */
export const fuelEvents = (criteria: LedgerCriteria) =>
  call<FuelEvent[]>(`${LEDGER}/fuelEvents`, { method: 'POST', data: { criteria }, quiet: true });
