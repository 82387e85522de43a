import type { DriverDayRow, DriverStatsRow } from '../../schemas/kit/reportColumns';
import { call } from './http/call';
import type { LedgerCriteria } from './reports';

/** Who drove a row, by IC card session: null when no session covers it (unassigned). */
export type { DriverRef } from '../../schemas/kit/trips';

/** A card read by a vehicle in scope that no driver holds, per card and vehicle. */
export interface UnknownCard {
  cardNo: string;
  holderName: string | null;
  vehicleId: number;
  licence: string;
  orgId: number;
  orgName: string;
  firstSeen: string;
  lastSeen: string;
  reads: number;
}

const STATS = '/vehicle/driverStatistics';
/** Assigning a card edits the driver. */
export const ASSIGN_CARD_CODE = 'driver-edit';

export const driverStats = (criteria: LedgerCriteria) =>
  call<DriverStatsRow[]>(`${STATS}/byDriver`, { method: 'POST', data: { criteria }, quiet: true });
export const driverDays = (criteria: LedgerCriteria) =>
  call<DriverDayRow[]>(`${STATS}/byDay`, { method: 'POST', data: { criteria }, quiet: true });
/** Where the per-driver figures download as xlsx (body: `{criteria}`). */
export const DRIVER_STATS_EXPORT = `${STATS}/byDriver/export`;

export const unknownCards = (criteria: Pick<LedgerCriteria, 'orgId' | 'vehicleId'>) =>
  call<UnknownCard[]>('/vehicle/driverCard/unknown', { method: 'POST', data: { criteria }, quiet: true });

export const assignCard = (cardNo: string, driverId: number) =>
  call<{ driverId: number; cardNo: string; sessions: number }>('/vehicle/driverCard/assign', {
    method: 'PUT',
    data: { cardNo, driverId },
    authority: ASSIGN_CARD_CODE,
  });
