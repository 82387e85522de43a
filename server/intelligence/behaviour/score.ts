import type { BehaviourFigures } from '../../../schemas/kit/behaviourFigures';
/**
 * The safety score (README "Driving behaviour"), Samsara's model:
 *   score = 100 − Σ impacts, clamped to 0–100, rounded to one decimal;
 *   an event's impact = its weight × count ÷ (distance / 100 km);
 *   speeding's impact = speeding time ÷ driving time × 100 × its weight (night driving likewise);
 * no distance driven → no score (null), never 100.
 */

import type { SafetyWeights } from './settings';

/** The figures the score weighs (one shape with the console's, in schemas/kit). */
export type ScoreInput = BehaviourFigures;

export function safetyScore(x: ScoreInput, w: SafetyWeights): number | null {
  if (!(x.distanceKm > 0)) return null;
  const per100 = x.distanceKm / 100;
  const events =
    (w.harshAcceleration * x.harshAcceleration + w.harshBraking * x.harshBraking + w.sharpTurn * x.sharpTurn + w.fatigue * x.fatigue) /
    per100;
  const share = (s: number) => (x.drivingS > 0 ? Math.min(1, s / x.drivingS) * 100 : 0);
  const impact = events + share(x.speedingS) * w.speeding + share(x.nightS) * w.night;
  return Math.round(Math.max(0, Math.min(100, 100 - impact)) * 10) / 10;
}
