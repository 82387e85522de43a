/**
 * The safety score (docs/user-guide/statistics.md, "Safety score"), Samsara's published model:
 *   score = 100 − Σ impacts, clamped to 0–100; no distance driven → no score (null), never 100;
 *   a harsh event's impact (acceleration, braking, sharp turn) = weight × count ÷ (distance / 1,000 km);
 *   a speeding or night run's impact = weight × its seconds ÷ driving seconds × 100 (per cent of driving time);
 *   a fatigue or distraction alarm's impact = weight × count ÷ driving hours.
 * Each event's impact is its share of the score: the score with the event left out is higher by
 * exactly that share (while above 0), which is how a dismissed event raises it.
 */

import type { EventKind, SpeedingSeverity } from './events';
import type { SafetyWeights, WeightKey } from './settings';

/** What the events are normalised by: the distance and time driven in the same range. */
export interface Exposure {
  distanceKm: number;
  drivingS: number;
}

/** One event, or several of one kind and severity taken together (impacts add up). */
export interface ScoredEvent {
  kind: EventKind;
  severity: SpeedingSeverity | null;
  count: number;
  durationS: number;
}

const SEVERITY_WEIGHT: Record<SpeedingSeverity, WeightKey> = {
  light: 'speedingLight',
  moderate: 'speedingModerate',
  severe: 'speedingSevere',
};

/** How each kind is normalised. */
export const NORMALISED_BY: Record<EventKind, 'distance' | 'drivingTime' | 'drivingHours'> = {
  harshAcceleration: 'distance',
  harshBraking: 'distance',
  sharpTurn: 'distance',
  speeding: 'drivingTime',
  night: 'drivingTime',
  fatigue: 'drivingHours',
  distraction: 'drivingHours',
};

/** The weight an event is scored with (a speeding run's by its severity; light when none is known). */
export function weightOf(e: Pick<ScoredEvent, 'kind' | 'severity'>, w: SafetyWeights): number {
  return e.kind === 'speeding' ? w[SEVERITY_WEIGHT[e.severity ?? 'light']] : w[e.kind];
}

/** The points an event takes off the score (before the clamp): its share. */
export function impactOf(e: ScoredEvent, x: Exposure, w: SafetyWeights): number {
  const weight = weightOf(e, w);
  if (weight === 0) return 0;
  switch (NORMALISED_BY[e.kind]) {
    case 'distance':
      return x.distanceKm > 0 ? (weight * e.count * 1000) / x.distanceKm : 0;
    case 'drivingTime':
      return x.drivingS > 0 ? (weight * Math.min(e.durationS, x.drivingS) * 100) / x.drivingS : 0;
    case 'drivingHours':
      return x.drivingS > 0 ? (weight * e.count * 3600) / x.drivingS : 0;
  }
}

/** The score, unrounded (null without distance). */
export function safetyScore(events: readonly ScoredEvent[], x: Exposure, w: SafetyWeights): number | null {
  if (!(x.distanceKm > 0)) return null;
  const impact = events.reduce((sum, e) => sum + impactOf(e, x, w), 0);
  return Math.max(0, Math.min(100, 100 - impact));
}

/** A score as reports show it: one decimal. */
export const roundScore = (score: number | null): number | null => (score === null ? null : Math.round(score * 10) / 10);
