import type { DerivePosition } from '../../../../server/intelligence/deriver';
import { repeatArrival, skewing } from '../../../../server/intelligence/alarms/detectors/aiRules';
import { ALARM_BIT_TYPES, alarmWordIntervals } from '../../../../server/intelligence/alarms/detectors/alarmWord';
import { areaOf, fenceIntervals, inside, type FenceRule } from '../../../../server/intelligence/alarms/detectors/fences';
import { faultIntervals, obdAlarmIntervals, parseDtc } from '../../../../server/intelligence/alarms/detectors/obd';
import { fatigue, fatigueSettled, fireOn, overSpeed, trail } from '../../../../server/intelligence/alarms/detectors/policyRules';
import type { AlarmPolicy } from '../../../../server/intelligence/alarms/policies';
import { ALARM_TYPES } from '../../../../server/intelligence/alarms/types';
import { east, ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-20T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };
const MIN = 60_000;

/** Reports as the deriver reads them back from the database. */
function positions(d: ScriptedDay): DerivePosition[] {
  return d.reports.map((r) => ({
    time: r.time as number,
    latitude: r.latitude,
    longitude: r.longitude,
    speed: r.speed ?? 0,
    direction: r.direction ?? 0,
    acc: typeof r.status === 'object' && r.status.accOn === true,
    alarm: typeof r.alarm === 'number' ? r.alarm : 0,
    status: 0,
    mileageKm: null,
    fuelL: null,
    blind: false,
    extras: (r.extras as Record<string, unknown>) ?? null,
  }));
}

const policy = (
  alarmType: AlarmPolicy['alarmType'],
  threshold: number | null,
  durationMinutes: number | null,
  params: Record<string, number> = {},
): AlarmPolicy => ({ id: 1, orgId: 1, alarmType, threshold, durationMinutes, params });

describe('alarm word', () => {
  it('maps every one of the 32 bits to a known type', () => {
    expect(ALARM_BIT_TYPES).toHaveLength(32);
    for (const t of ALARM_BIT_TYPES) expect(ALARM_TYPES).toContain(t);
  });

  it('lasts while the bit stays set, and an Insert follows a power cut', () => {
    const d = new ScriptedDay(START, HOME)
      .step(30, 0, { alarmBits: [8, 0] })
      .step(20, 0, { alarmBits: [0] })
      .step(10, 0);
    const found = alarmWordIntervals(positions(d));
    expect(found.map((a) => [a.type, (a.begin - START) / 1000, a.end === null ? null : (a.end - START) / 1000])).toEqual([
      ['PullOut', 0, 30],
      ['Insert', 30, 30],
      ['Sos', 0, 50],
    ]);
  });

  it('gives, visiting only the bits set or open, what a walk over all 32 bits of every report gives', () => {
    // The rule as first written: every bit of every report.
    const everyBit = (ps: readonly DerivePosition[]) => {
      const out: Array<[number, number, number | null, number | null]> = [];
      const open = new Map<number, [number, number, number | null, number | null]>();
      for (const p of ps)
        for (let bit = 0; bit < 32; bit++) {
          const set = ((p.alarm >>> bit) & 1) === 1;
          const cur = open.get(bit);
          if (set && !cur) open.set(bit, [bit, p.time, null, bit === 1 ? p.speed : null]);
          else if (set && cur && bit === 1) cur[3] = Math.max(cur[3] ?? 0, p.speed);
          else if (!set && cur) {
            cur[2] = p.time;
            out.push(cur);
            open.delete(bit);
            if (bit === 8) out.push([-1, p.time, p.time, null]);
          }
        }
      return [...out, ...open.values()];
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 50; run++) {
      // Words drawn from a few bits (31 and 8 among them) so runs form, set and clear.
      const bits = [0, 1, 8, 29, 31];
      const base = positions(new ScriptedDay(START, HOME).step(10, 0))[0];
      const ps = Array.from({ length: 300 }, (_, i) => ({
        ...base,
        time: START + i * 1000,
        speed: Math.floor(random() * 120),
        alarm: random() < 0.3 ? 0 : bits.reduce((w, b) => (random() < 0.4 ? w | (1 << b) : w), 0) | (i % 50 === 0 ? 0xffffffff : 0),
      }));
      expect(ps.length).toBeGreaterThan(100);
      const found = alarmWordIntervals(ps).map((a): [number, number, number | null, number | null] => [
        a.type === 'Insert' ? -1 : Number((a.detail?.sources as string[])[0].slice(4)),
        a.begin,
        a.end,
        a.value,
      ]);
      expect(found).toEqual(everyBit(ps));
    }
  });
});

describe('policy rules', () => {
  it('FireOn is ignition off → on, not ignition that was already on', () => {
    const d = new ScriptedDay(START, HOME).step(20, 0, { acc: true }).step(20, 0, { acc: false }).step(20, 0, { acc: true });
    expect(fireOn(positions(d)).map((a) => (a.begin - START) / 1000)).toEqual([40]);
  });

  it('OverSpeed needs the policy duration above the limit; with no duration, one report is enough', () => {
    const d = new ScriptedDay(START, HOME).step(50, 110).step(10, 90).step(70, 110).step(10, 90);
    expect(overSpeed(positions(d), policy('OverSpeed', 100, 1)).map((a) => [(a.begin - START) / 1000, (a.end! - START) / 1000])).toEqual([
      [60, 130],
    ]);
    expect(overSpeed(positions(d), policy('OverSpeed', 100, 0))).toHaveLength(2);
  });

  it('Trail: ignition off and carried beyond the threshold; parking jitter is not towing', () => {
    const jitter = new ScriptedDay(START, HOME);
    for (let i = 0; i < 60; i++) jitter.at(east(HOME, (i % 3) * 40), 0, { acc: false });
    expect(trail(positions(jitter), policy('Trail', 300, null))).toEqual([]);
    const towed = new ScriptedDay(START, HOME)
      .step(60, 0, { acc: false })
      .step(120, 15, { acc: false })
      .step(10 * 60, 0, { acc: false });
    const [t] = trail(positions(towed), policy('Trail', 300, null));
    expect(t.type).toBe('Trail');
    expect(t.end).not.toBeNull();
    expect(t.value).toBeGreaterThan(300);
  });

  it('Fatigue: 4 h of driving without a 20-minute rest; a 20-minute rest resets it, a 10-minute one does not', () => {
    const rested = new ScriptedDay(START, HOME)
      .step(3 * 3600, 60, { every: 60 })
      .step(20 * 60, 0, { every: 60 })
      .step(2 * 3600, 60, { every: 60 });
    expect(fatigue(positions(rested), policy('Fatigue', null, null))).toEqual([]);
    const tired = new ScriptedDay(START, HOME)
      .step(3 * 3600, 60, { every: 60 })
      .step(10 * 60, 0, { every: 60 })
      .step(2 * 3600, 60, { every: 60 })
      .step(30 * 60, 0, { every: 60 });
    const [f] = fatigue(positions(tired), policy('Fatigue', null, null));
    expect(f.begin).toBe(START);
    expect(f.firedAt).toBe(START + 240 * MIN);
    expect(f.end).toBe(START + (5 * 60 + 10 + 20) * MIN);
    // The policy's parameters: 6 h allowed, or a 10-minute rest enough.
    expect(fatigue(positions(tired), policy('Fatigue', null, null, { hours: 6 }))).toEqual([]);
    expect(fatigue(positions(tired), policy('Fatigue', null, null, { restMinutes: 10 }))).toEqual([]);
  });

  it('Fatigue ends at a rest the terminal was quiet through, at the report after it', () => {
    // 4.5 h of driving, one report parked, the terminal off for an hour, then driving again.
    const day = new ScriptedDay(START, HOME).step(270 * 60, 60, { every: 60 }).step(60, 0, { every: 60 });
    const parkedAt = START + 270 * MIN;
    const after = new ScriptedDay(day.time + 60 * MIN, day.position).step(30 * 60, 60, { every: 60 });
    const found = fatigue([...positions(day), ...positions(after)], policy('Fatigue', null, null));
    expect(found.map((f) => [f.begin, f.end])).toEqual([[START, parkedAt + 20 * MIN]]);
  });

  it('fatigueSettled: the first report where a full rest lies behind, even a rest the reports begin inside', () => {
    const p = policy('Fatigue', null, null);
    // Starting inside a rest (what drove before is not among the reports): its 20 minutes settle it.
    const midRest = new ScriptedDay(START, HOME).step(25 * 60, 0, { every: 60 }).step(60 * 60, 60, { every: 60 });
    expect(fatigueSettled(positions(midRest), p)).toBe(START + 20 * MIN);
    // A stop of 10 minutes settles nothing; the 25 after the drive do, at their 20th minute.
    const short = new ScriptedDay(START, HOME)
      .step(60 * 60, 60, { every: 60 })
      .step(10 * 60, 0, { every: 60 })
      .step(60 * 60, 60, { every: 60 })
      .step(25 * 60, 0, { every: 60 });
    expect(fatigueSettled(positions(short), p)).toBe(START + (130 + 20) * MIN);
    expect(fatigueSettled(positions(new ScriptedDay(START, HOME).step(60 * 60, 60, { every: 60 })), p)).toBeNull();
  });

  it('OverSpeed durationSeconds adds to durationMinutes', () => {
    const d = new ScriptedDay(START, HOME).step(40, 110).step(10, 90);
    expect(overSpeed(positions(d), policy('OverSpeed', 100, 0, { durationSeconds: 30 }))).toHaveLength(1);
    expect(overSpeed(positions(d), policy('OverSpeed', 100, 0, { durationSeconds: 45 }))).toEqual([]);
  });
});

describe('fences', () => {
  const square = areaOf('polygon', {
    points: [
      [121.399, 31.199],
      [121.401, 31.199],
      [121.401, 31.201],
      [121.399, 31.201],
    ],
  })!;
  const rule = (dwellSeconds: number, speedLimit: number | null = null): FenceRule => ({
    id: 7,
    name: 'depot',
    area: square,
    dwellSeconds,
    alarmOnEnter: true,
    alarmOnExit: true,
    speedLimit,
  });

  it('tells inside from outside for polygons (ring closed or not) and circles', () => {
    expect(inside(square, HOME)).toBe(true);
    expect(inside(square, east(HOME, 300))).toBe(false);
    const circle = areaOf('circle', { center: [121.4, 31.2], radius: 100 })!;
    expect(inside(circle, east(HOME, 90))).toBe(true);
    expect(inside(circle, east(HOME, 110))).toBe(false);
    expect(
      areaOf('polygon', {
        points: [
          [1, 2],
          [3, 4],
        ],
      }),
    ).toBeNull();
    expect(areaOf('circle', { center: [1] })).toBeNull();
  });

  it('jitter across the border is no crossing; staying the dwell is, at the moment of crossing', () => {
    const outside = east(HOME, 400);
    const d = new ScriptedDay(START, outside);
    d.step(60, 0, { acc: true });
    const border = east(HOME, 96); // the square's east edge is ~95 m from its centre
    for (let i = 0; i < 20; i++) d.at(east(border, i % 2 ? 10 : -10), 0);
    expect(fenceIntervals(positions(d), rule(30))).toEqual([]);
    d.step(40, 0, { acc: true }).jumpTo(HOME).step(60, 0).jumpTo(outside).step(60, 0);
    const crossings = fenceIntervals(positions(d), rule(30)).map((a) => a.type);
    expect(crossings).toEqual(['FenceIn', 'FenceOut']);
    expect(fenceIntervals(positions(d), rule(0)).length).toBeGreaterThan(2);
  });

  it('inside a fence with a speed limit, going faster is OverSpeed', () => {
    const d = new ScriptedDay(START, east(HOME, -80)).step(60, 5, { heading: 90 }).step(10, 40).step(10, 5);
    const found = fenceIntervals(positions(d), rule(0, 30));
    expect(found.filter((a) => a.type === 'OverSpeed').map((a) => [a.value, a.fenceId])).toEqual([[40, 7]]);
  });
});

describe('OBD', () => {
  it('reads J1939 SPN/FMI and OBD-II codes', () => {
    expect(parseDtc('p0301')).toEqual({ kind: 'obd2', code: 'P0301' });
    expect(parseDtc('SPN 110 FMI 0')).toEqual({ kind: 'j1939', spn: 110, fmi: 0 });
    expect(parseDtc('110-3')).toEqual({ kind: 'j1939', spn: 110, fmi: 3 });
    expect(parseDtc('999999-3')).toEqual({ kind: 'other', code: '999999-3' });
    expect(parseDtc('E42')).toEqual({ kind: 'other', code: 'E42' });
  });

  it('one Fault per code, from the first report listing it to the first that does not, in any arrival order', () => {
    const r = (min: number, codes: string[]) => ({ time: START + min * MIN, codes, latitude: 31.2, longitude: 121.4 });
    const reports = [r(0, ['P0301']), r(1, ['P0301', '110-0']), r(2, ['110-0']), r(3, [])];
    const lookup = (d: ReturnType<typeof parseDtc>) =>
      d.kind === 'j1939' && d.spn === 110
        ? { id: 9, name: '冷却液温度过高', level: 'critical' as const, cause: null, resolvent: '检查冷却系统', maintenanceMeasures: null }
        : null;
    const found = faultIntervals(reports, lookup).map((a) => [a.subject, (a.begin - START) / MIN, (a.end! - START) / MIN, a.level ?? null]);
    expect(found).toEqual([
      ['dtc:P0301', 0, 2, null],
      ['dtc:110-0', 1, 3, 'critical'],
    ]);
    expect(faultIntervals([...reports].reverse(), lookup).map((a) => [a.subject, (a.begin - START) / MIN])).toEqual(
      found.map((f) => [f[0], f[1]]),
    );
  });

  it('each item of an OBD alarm record is an OBD alarm', () => {
    const found = obdAlarmIntervals([
      {
        time: START,
        subtype: 3,
        latitude: 31.2,
        longitude: 121.4,
        readings: null,
        detail: {
          alarms: [
            { id: 1, hex: '01' },
            { id: 4, hex: '' },
          ],
        },
        dtcCount: 0,
      },
      { time: START, subtype: 1, latitude: 31.2, longitude: 121.4, readings: null, detail: { alarms: [{ id: 2, hex: '' }] }, dtcCount: 0 },
    ]);
    expect(found.map((a) => [a.type, a.subject])).toEqual([
      ['ObdAlarm', 'obd:1'],
      ['ObdAlarm', 'obd:4'],
    ]);
  });
});

describe('AI alarms', () => {
  it('RepeatArrival: the third stop within 200 m inside the window, not stops elsewhere or short ones', () => {
    const depot = HOME;
    const d = new ScriptedDay(START, depot);
    const visit = (place: { latitude: number; longitude: number }, minutes: number) =>
      d
        .jumpTo(place)
        .step(minutes * 60, 0, { acc: true })
        .step(60, 40);
    visit(depot, 5);
    visit(east(depot, 5000), 5); // elsewhere
    visit(east(depot, 150), 1); // too short to be a visit
    visit(east(depot, 150), 5);
    visit(depot, 5); // third visit: fires
    visit(depot, 5); // fourth: already told
    const found = repeatArrival(positions(d), { radiusM: 200, count: 3, windowMs: 24 * 3_600_000 });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'RepeatArrival', value: 3 });
    expect(repeatArrival(positions(d), { radiusM: 200, count: 3, windowMs: 10 * MIN })).toEqual([]);
  });

  it('Skewing: off the task’s route corridor for the minutes, only during the task', () => {
    const d = new ScriptedDay(START, HOME).step(10 * 60, 36, { heading: 90 }); // 6 km east along the route
    d.step(10 * 60, 36, { heading: 0 }); // 6 km north: off the route
    const route = [
      [121.4, 31.2],
      [121.5, 31.2],
    ];
    const task = { id: 5, name: '送货', line: route, begin: START, end: START + 60 * MIN };
    const [s] = skewing(positions(d), [task], { corridorM: 500, minMs: 5 * MIN });
    expect(s).toMatchObject({ type: 'Skewing', subject: 'task:5', detail: { taskId: 5 } });
    expect(s.value).toBeGreaterThan(5000);
    expect(skewing(positions(d), [{ ...task, end: START + 10 * MIN }], { corridorM: 500, minMs: 5 * MIN })).toEqual([]);
    expect(skewing(positions(d), [task], { corridorM: 500, minMs: 30 * MIN })).toEqual([]);
  });
});
