import type { DerivePosition } from '../../../../server/intelligence/deriver';
import { dayEvents } from '../../../../server/intelligence/behaviour/events';
import { healthIndex } from '../../../../server/intelligence/behaviour/health';
import { DEFAULT_THRESHOLDS, settingsOf } from '../../../../server/intelligence/behaviour/settings';

const T0 = Date.parse('2026-11-20T02:00:00Z'); // 10:00 in Shanghai
const TZ = 'Asia/Shanghai';
const pos = (s: number, speed: number, direction = 0, extras: Record<string, unknown> | null = null): DerivePosition => ({
  time: T0 + s * 1000,
  latitude: 31,
  longitude: 121,
  speed,
  direction,
  acc: true,
  alarm: 0,
  status: 1,
  mileageKm: null,
  fuelL: null,
  blind: false,
  extras,
});
const whole = (ps: DerivePosition[]) => [{ begin: ps[0].time, end: ps[ps.length - 1].time }];
const events = (ps: DerivePosition[], t = DEFAULT_THRESHOLDS, trips = whole(ps)) =>
  dayEvents(ps, trips, T0 - 3_600_000, T0 + 3_600_000, 100, TZ, t);

describe('driving events', () => {
  it('takes a hard stop over several close reports as one braking, and nothing from reports far apart', () => {
    expect(events([pos(0, 60), pos(1, 45), pos(2, 30), pos(3, 15)]).harshBraking).toBe(1);
    expect(events([pos(0, 60), pos(10, 20)]).harshBraking).toBe(0);
    expect(events([pos(0, 20), pos(2, 45)]).harshAcceleration).toBe(0); // +25 in 2 s: under 26
    expect(events([pos(0, 20), pos(2, 46)]).harshAcceleration).toBe(1);
  });

  it('follows configured thresholds', () => {
    expect(events([pos(0, 20), pos(2, 40)], { ...DEFAULT_THRESHOLDS, harshAccelerationKmh: 15 }).harshAcceleration).toBe(1);
    expect(events([pos(0, 20), pos(2, 40)]).harshAcceleration).toBe(0);
  });

  it('sees a sharp turn across north, but not a tight turn at walking pace', () => {
    expect(events([pos(0, 40, 340), pos(1, 40, 20)]).sharpTurn).toBe(1);
    expect(events([pos(0, 10, 0), pos(1, 10, 90)]).sharpTurn).toBe(0);
  });

  it('counts nothing outside trips', () => {
    const ps = [pos(0, 60), pos(1, 30), pos(2, 130), pos(20, 130)];
    expect(events(ps, DEFAULT_THRESHOLDS, [])).toMatchObject({ harshBraking: 0, harshAcceleration: 0, speedingS: 0 });
  });

  it('takes harsh counts from the terminal counters when it reports them, a reset counter included', () => {
    const c = (n: number) => ({ obdF3: { harshAccelerationCount: n } });
    const e = events([pos(0, 0, 0, c(5)), pos(1, 40, 0, c(7)), pos(30, 40, 0, c(1))]);
    expect(e.harshAcceleration).toBe(3);
    expect(e.sources).toEqual(['computed', 'terminal']);
  });

  it('measures speeding and night driving in seconds, across midnight', () => {
    const night = Date.parse('2026-11-20T15:59:00Z'); // 23:59 local
    const ps = [0, 30, 60, 90].map((s) => ({ ...pos(0, 110), time: night + s * 1000 }));
    const e = dayEvents(ps, whole(ps), Date.parse('2026-11-19T16:00:00Z'), Date.parse('2026-11-20T16:00:00Z'), 100, TZ, DEFAULT_THRESHOLDS);
    // 23:59:00 and 23:59:30 start in this day; the pair from 00:00:00 belongs to the next.
    expect(e).toMatchObject({ speedingS: 60, nightS: 60 });
    expect(events([pos(0, 110), pos(30, 110)]).nightS).toBe(0);
  });
});

describe('safety settings', () => {
  it('reads stored settings over the defaults, ignoring what is not a number; an old single speeding weight stands for every severity', () => {
    expect(settingsOf({ speeding: 5, speedingSevere: 7, fatigue: 'x' }, '{"withinS":3}')).toMatchObject({
      weights: { speedingLight: 5, speedingModerate: 5, speedingSevere: 7, fatigue: 2 },
      thresholds: { withinS: 3, harshBrakingKmh: 26 },
    });
  });
});

describe('health index', () => {
  it('bands by the penalties of faults, battery, coolant and alarms', () => {
    expect(healthIndex({ faults: [], minBatteryV: 12.6, maxCoolantC: 90, alarmCount: 0 })).toEqual({ index: 100, band: 'healthy' });
    expect(
      healthIndex({
        faults: [{ code: 'P0301', level: 'high', name: null, resolvent: null }],
        minBatteryV: null,
        maxCoolantC: null,
        alarmCount: 0,
      }),
    ).toEqual({ index: 70, band: 'attention' });
    expect(healthIndex({ faults: [], minBatteryV: 11.7, maxCoolantC: 106, alarmCount: 30 })).toEqual({ index: 45, band: 'fault' });
  });
});
