import { impactOf, safetyScore, type Exposure, type ScoredEvent } from '../../../../server/intelligence/behaviour/score';
import { speedingSeverity } from '../../../../server/intelligence/behaviour/events';
import { DEFAULT_WEIGHTS } from '../../../../server/intelligence/behaviour/settings';
import { percentileAmong } from '../../../../server/reports/safetyExplainRoutes';

/** 250 km in 5 hours of driving. */
const X: Exposure = { distanceKm: 250, drivingS: 5 * 3600 };
const ev = (kind: ScoredEvent['kind'], over: Partial<ScoredEvent> = {}): ScoredEvent => ({
  kind,
  severity: null,
  count: 1,
  durationS: 0,
  ...over,
});

describe('safety score formulas, computed by hand', () => {
  it('harsh events: weight × count per 1,000 km', () => {
    // 1 × 2 × 1000 ÷ 250 = 8; sharp turn weighted 3: 3 × 1 × 1000 ÷ 250 = 12.
    expect(impactOf(ev('harshBraking', { count: 2 }), X, DEFAULT_WEIGHTS)).toBe(8);
    expect(impactOf(ev('sharpTurn'), X, { ...DEFAULT_WEIGHTS, sharpTurn: 3 })).toBe(12);
  });

  it('speeding and night runs: weight × per cent of driving time, speeding by severity', () => {
    // Moderate, 540 s of 18,000: 1 × 540 × 100 ÷ 18000 = 3; severe weighted 4, 180 s: 4 × 1 = 4.
    expect(impactOf(ev('speeding', { severity: 'moderate', durationS: 540 }), X, DEFAULT_WEIGHTS)).toBe(3);
    expect(impactOf(ev('speeding', { severity: 'severe', durationS: 180 }), X, { ...DEFAULT_WEIGHTS, speedingSevere: 4 })).toBe(4);
    // Night is off by default; weighted 1, an hour of five is 20.
    expect(impactOf(ev('night', { durationS: 3600 }), X, DEFAULT_WEIGHTS)).toBe(0);
    expect(impactOf(ev('night', { durationS: 3600 }), X, { ...DEFAULT_WEIGHTS, night: 1 })).toBe(20);
  });

  it('fatigue and distraction: weight × count per driving hour', () => {
    // 2 × 1 ÷ 5 h = 0.4; 2 × 2 ÷ 5 h = 0.8.
    expect(impactOf(ev('fatigue'), X, DEFAULT_WEIGHTS)).toBeCloseTo(0.4, 12);
    expect(impactOf(ev('distraction', { count: 2 }), X, DEFAULT_WEIGHTS)).toBeCloseTo(0.8, 12);
  });

  it('100 less the sum of the impacts, within 0–100; no distance, no score', () => {
    const day = [
      ev('harshBraking', { count: 2 }),
      ev('harshAcceleration'),
      ev('speeding', { severity: 'moderate', durationS: 540 }),
      ev('fatigue'),
      ev('distraction', { count: 2 }),
    ];
    // 100 − (8 + 4 + 3 + 0.4 + 0.8) = 83.8
    expect(safetyScore(day, X, DEFAULT_WEIGHTS)).toBeCloseTo(83.8, 10);
    expect(safetyScore([], X, DEFAULT_WEIGHTS)).toBe(100);
    expect(safetyScore([ev('harshBraking', { count: 100 })], X, DEFAULT_WEIGHTS)).toBe(0);
    expect(safetyScore(day, { distanceKm: 0, drivingS: 0 }, DEFAULT_WEIGHTS)).toBeNull();
  });

  it('grades speeding by the excess over the limit: under 20 %, 20–50 %, 50 % and more', () => {
    expect(speedingSeverity(119, 100)).toBe('light');
    expect(speedingSeverity(120, 100)).toBe('moderate');
    expect(speedingSeverity(149, 100)).toBe('moderate');
    expect(speedingSeverity(150, 100)).toBe('severe');
  });

  it('ranks among peers: the share scoring lower, ties half', () => {
    // Below 80: 70 and 60; tied: 80. (2 + 0.5) ÷ 4 = 62.5 %.
    expect(percentileAmong(80, [70, 80, 90, 60])).toBe(62.5);
    expect(percentileAmong(80, [])).toBeNull();
    expect(percentileAmong(null, [70])).toBeNull();
  });
});
