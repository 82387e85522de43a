/**
 * A vehicle's driving-behaviour figures over a day or a range: what the safety score is computed
 * from (server/intelligence/behaviour/score.ts) and what the safety page shows beside it.
 */
export interface BehaviourFigures {
  harshAcceleration: number;
  harshBraking: number;
  sharpTurn: number;
  fatigue: number;
  /** Distraction alarms (active safety's dangerous-driving bit). */
  distraction: number;
  speedingS: number;
  nightS: number;
  distanceKm: number;
  drivingS: number;
}
