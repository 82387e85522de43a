import type { BehaviourFigures } from '../../schemas/kit/behaviourFigures';
import type { HealthVehicleRow, SafetyRankRow } from '../../schemas/kit/reportColumns';
import type { DriverRef } from './drivers';
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

/** The kinds of event the safety score weighs (server/intelligence/behaviour/events.ts). */
export type SafetyEventKind = 'harshAcceleration' | 'harshBraking' | 'sharpTurn' | 'speeding' | 'night' | 'fatigue' | 'distraction';
export type SpeedingSeverity = 'light' | 'moderate' | 'severe';
export type ReviewState = 'dismissed' | 'coached';

export interface SafetyEventReview {
  state: ReviewState;
  note: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
}

export interface SafetyEvent {
  kind: SafetyEventKind;
  at: string;
  day: string;
  latitude: number | null;
  longitude: number | null;
  count: number;
  durationS: number;
  severity: SpeedingSeverity | null;
  peakKmh: number | null;
  limitKmh: number | null;
  source: string;
  weight: number;
  normalisedBy: 'distance' | 'drivingTime' | 'drivingHours';
  /** Points the event takes off the score when it counts. */
  impact: number;
  /** Points it takes off now (0 when dismissed). */
  share: number;
  review: SafetyEventReview | null;
  /** Who drove, by IC card session. */
  driver?: DriverRef;
}

export interface SafetyExplanation {
  vehicleId: number;
  licence: string;
  orgId: number;
  orgName: string;
  begin: string;
  end: string;
  weeks: number;
  distanceKm: number;
  drivingS: number;
  score: number | null;
  percentile: number | null;
  peers: number;
  weights: Record<string, number>;
  weightsFrom: number | null;
  events: SafetyEvent[];
}

export interface SafetyExplainCriteria {
  vehicleId: number;
  weeks: number;
}

export interface SafetyReviewBody {
  vehicleId: number;
  kind: SafetyEventKind;
  at: string;
  state: ReviewState;
  note: string;
}

export const safetyExplain = (criteria: SafetyExplainCriteria) =>
  call<SafetyExplanation>(`${BEHAVIOUR}/safetyExplain`, { method: 'POST', data: { criteria }, quiet: true });
/** Not quiet: a refused review shows the server's message. */
export const reviewSafetyEvent = (body: SafetyReviewBody) =>
  call<SafetyReviewBody>(`${BEHAVIOUR}/safetyEvent/review`, { method: 'PUT', data: body, authority: 'safetyEvent-review' });
