import type { BehaviourFigures } from '../../schemas/kit/behaviourFigures';
import type { HealthVehicleRow, SafetyRankRow } from '../../schemas/kit/reportColumns';
import { call } from './http/call';
import type { LedgerCriteria } from './reports';

/** The safety score and health index calls (server/reports/behaviourRoutes.ts, healthRoutes.ts). */

export type { BehaviourFigures };

export interface SafetyDay extends BehaviourFigures {
  date: string;
  /** 0–100; null when nothing was driven. */
  score: number | null;
}

export type SafetyRank = SafetyRankRow;

export interface SafetyReport {
  days: SafetyDay[];
  ranking: SafetyRank[];
}

export type HealthBand = 'healthy' | 'attention' | 'fault';
export const HEALTH_BANDS: readonly HealthBand[] = ['healthy', 'attention', 'fault'];

export interface HealthCounts {
  vehicles: number;
  healthy: number;
  attention: number;
  fault: number;
}

export interface HealthDay extends HealthCounts {
  date: string;
  index: number;
}

export type HealthVehicle = HealthVehicleRow;
export type HealthFault = HealthVehicleRow['faults'][number];

export type HealthFleet = Record<HealthBand, HealthVehicle[]>;
export type HealthTotal = HealthCounts & { index: number | null; openFaults: number };

const BEHAVIOUR = '/vehicle/dailyDrivingBehavior';
const HEALTH = '/vehicle/vehicleDailyHealth';
const post = <T>(url: string, criteria: LedgerCriteria) => call<T>(url, { method: 'POST', data: { criteria }, quiet: true });

export const safetyReport = (c: LedgerCriteria) => post<SafetyReport>(`${BEHAVIOUR}/vehicleSafetyEchart`, c);
export const healthTrend = (c: LedgerCriteria) => post<HealthDay[]>(`${HEALTH}/vehicleDailyHealthEchart`, c);
export const healthFleet = (c: LedgerCriteria) => post<HealthFleet>(`${HEALTH}/vehicleDailyHealthFleet`, c);
export const healthTotal = (c: LedgerCriteria) => post<HealthTotal>(`${HEALTH}/total`, c);

/** Where the vehicles by band download as xlsx (body: `{criteria: {…, band}}`). */
export const HEALTH_EXPORT = `${HEALTH}/vehicleDailyHealthFleet/export`;
/** Where the safety ranking downloads as xlsx (body: `{criteria}`). */
export const SAFETY_EXPORT = `${BEHAVIOUR}/vehicleSafetyEchart/export`;
