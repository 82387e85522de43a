import { catalogues } from '../../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../../schemas/kit/i18n';
import type { SafetyEvent, SafetyEventKind, SpeedingSeverity } from '../../../../src/services/behaviour';
import { normalisedKey, placedEvents, vehicleIdOf, weightLabelKey } from '../../../../src/pages/statistics/safetyExplainModel';

const KINDS: SafetyEventKind[] = ['harshAcceleration', 'harshBraking', 'sharpTurn', 'speeding', 'night', 'fatigue', 'distraction'];
const SEVERITIES: Array<SpeedingSeverity | null> = ['light', 'moderate', 'severe', null];

describe('the safety explanation page model', () => {
  it('names each kind (speeding by its severity) and each normalisation in every language', () => {
    const keys = [
      ...KINDS.flatMap((kind) => SEVERITIES.map((severity) => weightLabelKey({ kind, severity }))),
      ...(['distance', 'drivingTime', 'drivingHours'] as const).map((normalisedBy) => normalisedKey({ normalisedBy })),
    ];
    expect(weightLabelKey({ kind: 'speeding', severity: 'severe' })).toBe('behaviour.fields.speedingSevere');
    expect(weightLabelKey({ kind: 'speeding', severity: null })).toBe('behaviour.fields.speedingLight');
    for (const lang of LANGUAGES) expect(keys.filter((k) => !catalogues[lang][k])).toEqual([]);
  });

  it('puts on the map only the events with a place, and reads the vehicle from the address', () => {
    const at = (latitude: number | null) => ({ latitude, longitude: latitude === null ? null : 121.4 }) as SafetyEvent;
    expect(placedEvents([at(31.2), at(null)])).toHaveLength(1);
    expect(vehicleIdOf('?vehicleId=7')).toBe(7);
    expect(vehicleIdOf('?vehicleId=x')).toBeNull();
    expect(vehicleIdOf('?vehicleId=-3')).toBeNull();
    expect(vehicleIdOf('')).toBeNull();
  });
});
