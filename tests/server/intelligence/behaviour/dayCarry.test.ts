import type { DeriveWindow } from '../../../../server/intelligence/deriver';
import { DayCarries, tallyHealth, type DayBasis, type DayCarry } from '../../../../server/intelligence/behaviour/dayCarry';
import { DEFAULT_THRESHOLDS } from '../../../../server/intelligence/behaviour/settings';
import { settledInside, walkSpeedLimits, type FenceRule } from '../../../../server/intelligence/alarms/detectors/fences';
import { DEFAULT_SETTINGS } from '../../../../server/intelligence/windowLoad';

const LO = Date.parse('2026-11-19T16:00:00Z');
const HI = LO + 86_400_000;
const basis: DayBasis = { lo: LO, hi: HI, timeZone: 'Asia/Shanghai', speedLimit: 100, thresholds: DEFAULT_THRESHOLDS, fences: [] };
const tally = (through: number) => ({
  through,
  kinds: [],
  speedingS: 0,
  nightS: 0,
  speedingRuns: [],
  speedingOpen: false,
  nightRuns: [],
  nightOpen: false,
});
const health = (through: number) =>
  tallyHealth([], [], { through, minBatteryV: null, maxCoolantC: null, recordsThrough: through, recordsMaxCoolantC: null });
const carry: DayCarry = { ...basis, trips: new Map([[LO + 1_000, tally(LO + 60_000)]]), health: health(LO + 60_000), limits: null };

const windowOf = (over: Partial<DeriveWindow>): DeriveWindow => ({
  vehicle: {
    vehicleId: 7,
    orgId: 1,
    orgPath: '/1/',
    licence: '沪A1',
    tankCapacityL: null,
    fuelTypeId: null,
    settings: DEFAULT_SETTINGS,
    timeZone: 'Asia/Shanghai',
  },
  from: LO,
  to: Infinity,
  positions: [],
  obdRecords: [],
  before: null,
  after: null,
  dirty: { from: LO + 61_000, to: Infinity },
  continues: true,
  ...over,
});

describe('what the behaviour deriver carries from one pass to the next', () => {
  const carries = new DayCarries();
  carries.keep(7, new Map([['2026-11-20', carry]]));

  it('is gone on from only when the window continues the last pass, its day is the window’s own and the settings are the same objects', () => {
    expect(carries.usable(windowOf({}), '2026-11-20', basis, true)).toBe(carry);
    // Another process derived the vehicle since, or the pass before rolled back: nothing held served.
    expect(carries.usable(windowOf({ continues: undefined }), '2026-11-20', basis, true)).toBeNull();
    expect(carries.usable(windowOf({ dirty: undefined }), '2026-11-20', basis, true)).toBeNull();
    expect(carries.usable(windowOf({}), '2026-11-20', basis, false)).toBeNull();
    expect(carries.usable(windowOf({}), '2026-11-21', basis, true)).toBeNull();
    // Settings edited: the cache hands out new objects, equal or not.
    expect(carries.usable(windowOf({}), '2026-11-20', { ...basis, thresholds: { ...DEFAULT_THRESHOLDS } }, true)).toBeNull();
    expect(carries.usable(windowOf({}), '2026-11-20', { ...basis, fences: [] }, true)).toBeNull();
    expect(carries.usable(windowOf({}), '2026-11-20', { ...basis, speedLimit: 90 }, true)).toBeNull();
  });

  it('carries a trip on while it begins where it did, reaches where its tally stopped, and nothing walked changed', () => {
    const w = windowOf({});
    expect(DayCarries.tripFrom(carry, { begin: LO + 1_000, end: LO + 90_000 }, w)).toBe(carry.trips.get(LO + 1_000));
    expect(DayCarries.tripFrom(carry, { begin: LO + 2_000, end: LO + 90_000 }, w)).toBeUndefined();
    // The trip ended before the report its tally stopped at (a stop found since).
    expect(DayCarries.tripFrom(carry, { begin: LO + 1_000, end: LO + 59_000 }, w)).toBeUndefined();
    // A late report at or before where the tally stopped.
    const late = windowOf({ dirty: { from: LO + 60_000, to: LO + 61_000 } });
    expect(DayCarries.tripFrom(carry, { begin: LO + 1_000, end: LO + 90_000 }, late)).toBeUndefined();
    expect(DayCarries.healthFrom(carry, w)).toBe(carry.health);
    expect(DayCarries.healthFrom(carry, late)).toBeUndefined();
  });

  it('stops a health tally at the newest report the marks cover, and goes on from there as if it had not stopped', () => {
    const at = (s: number, acc: boolean, volts: number | null, coolant: number | null) => ({
      time: LO + s * 1000,
      latitude: 31,
      longitude: 121,
      speed: 0,
      direction: 0,
      acc,
      alarm: 0,
      status: 0,
      mileageKm: null,
      fuelL: null,
      blind: false,
      extras: { ...(volts === null ? {} : { eb: { powerV: volts } }), ...(coolant === null ? {} : { obd: { coolantTempC: coolant } }) },
    });
    const today = [
      at(1, false, 12.1, null),
      at(2, true, 10.0, 90),
      at(3, false, 11.4, null),
      at(4, false, 11.9, 104),
      at(4, true, null, 95),
    ];
    const records = [2, 3.5, 5].map((s, i) => ({
      time: LO + s * 1000,
      subtype: 1,
      latitude: null,
      longitude: null,
      readings: { coolantTempC: [99, 107, 80][i] },
      detail: null,
      dtcCount: 0,
    }));
    const whole = tallyHealth(today, records);
    expect(whole).toMatchObject({ minBatteryV: 11.4, maxCoolantC: 104, recordsMaxCoolantC: 107 });
    for (const cut of [0, 1.5, 3, 3.5, 4, 9]) {
      const settled = tallyHealth(today, records, undefined, LO + cut * 1000);
      expect(settled.through).toBeLessThanOrEqual(LO + cut * 1000);
      expect(tallyHealth(today, records, settled)).toEqual(whole);
    }
  });

  it('carries the fence speed limits on from the reports walked, as if walked afresh, and only over the same reports', () => {
    // A zone of 60 km/h with a 30 s dwell; the vehicle drives in, jitters at the border, drives out.
    const zone: FenceRule = {
      id: 1,
      name: '学校',
      area: { kind: 'circle', center: [121.4, 31.2], radiusM: 500 },
      dwellSeconds: 30,
      alarmOnEnter: false,
      alarmOnExit: false,
      speedLimit: 60,
    };
    const slow: FenceRule = { ...zone, id: 2, area: { kind: 'circle', center: [121.4, 31.2], radiusM: 200 }, speedLimit: 30 };
    const eastKm = [-1, -0.6, -0.45, -0.3, -0.15, -0.1, -0.05, 0, 0.05, 0.1, 0.15, 0.45, 0.55, 0.45, 0.3, 0.6, 0.8, 1];
    const positions = eastKm.map((km, i) => ({
      time: LO + i * 10_000,
      latitude: 31.2,
      longitude: 121.4 + km / 95.3,
      speed: 50,
      direction: 90,
      acc: true,
      alarm: 0,
      status: 0,
      mileageKm: null,
      fuelL: null,
      blind: false,
      extras: null,
    }));
    const whole = walkSpeedLimits(positions, [zone, slow], 100);
    // Each fence's limit where the vehicle is settled inside it, the lowest winning.
    const inZone = settledInside(positions, zone);
    const inSlow = settledInside(positions, slow);
    expect(whole.limits).toEqual(positions.map((_, i) => Math.min(100, inZone[i] ? 60 : 100, inSlow[i] ? 30 : 100)));
    expect(new Set(whole.limits)).toEqual(new Set([100, 60, 30]));
    for (let cut = 0; cut <= positions.length; cut++) {
      const settled = walkSpeedLimits(positions, [zone, slow], 100, undefined, cut);
      expect(walkSpeedLimits(positions, [zone, slow], 100, settled)).toEqual(whole);
      const walked: DayCarry = { ...carry, limits: { through: cut ? positions[cut - 1].time : -Infinity, walk: settled } };
      expect(DayCarries.limitsFrom(walked, windowOf({ dirty: { from: LO + 200_000, to: Infinity } }), positions)).toBe(settled);
      // A report at or before the last one walked changed, or the day holds fewer reports than walked.
      if (cut) {
        expect(
          DayCarries.limitsFrom(walked, windowOf({ dirty: { from: positions[cut - 1].time, to: Infinity } }), positions),
        ).toBeUndefined();
        expect(
          DayCarries.limitsFrom(walked, windowOf({ dirty: { from: LO + 200_000, to: Infinity } }), positions.slice(1)),
        ).toBeUndefined();
      }
    }
  });

  it('forgets a vehicle whose day was read apart from its window', () => {
    const own = new DayCarries();
    own.keep(7, new Map([['2026-11-20', carry]]));
    own.forget(7);
    expect(own.usable(windowOf({}), '2026-11-20', basis, true)).toBeNull();
  });
});
