/**
 * dayEvents walks each trip once; here it is checked against the rules written out plainly (each
 * trip's reports filtered from the day, each kind counted on its own) over random days: reports a
 * second or more apart, trips anywhere (overlapping the day's edges too), terminal counters on some
 * reports, a speed limit per report.
 */

import fc from 'fast-check';
import type { DerivePosition } from '../../../../server/intelligence/deriver';
import { dayEvents, tallyTrip, terminalCounter, type DayEvents, type TripSpan } from '../../../../server/intelligence/behaviour/events';
import { DEFAULT_THRESHOLDS, type BehaviourThresholds } from '../../../../server/intelligence/behaviour/settings';
import { zoneOffsetMinutes } from '../../../../server/intelligence/localDay';

const TZ = 'Asia/Shanghai';
const T0 = Date.parse('2026-11-20T13:50:00Z'); // 21:50 local: night begins within the day
const LO = T0 + 60_000;
const HI = T0 + 3_600_000;
const KINDS = ['harshAcceleration', 'harshBraking', 'sharpTurn'] as const;
type Kind = (typeof KINDS)[number];

function kindsOf(a: DerivePosition, b: DerivePosition, t: BehaviourThresholds): Set<Kind> {
  const out = new Set<Kind>();
  const dt = (b.time - a.time) / 1000;
  if (!(dt > 0 && dt <= t.withinS)) return out;
  const gain = ((b.speed - a.speed) / dt) * t.withinS;
  if (gain >= t.harshAccelerationKmh) out.add('harshAcceleration');
  if (-gain >= t.harshBrakingKmh) out.add('harshBraking');
  const turn = Math.abs(b.direction - a.direction) % 360;
  const lateral = ((a.speed + b.speed) / 2 / 3.6) * (((turn > 180 ? 360 - turn : turn) * Math.PI) / 180 / dt);
  if (Math.min(a.speed, b.speed) >= t.sharpTurnMinKmh && lateral >= t.sharpTurnMs2) out.add('sharpTurn');
  return out;
}

const night = (ms: number, t: BehaviourThresholds) => {
  const hour = Math.floor(((((ms / 60_000 + zoneOffsetMinutes(ms, TZ)) % 1440) + 1440) % 1440) / 60);
  return hour >= t.nightFromHour || hour < t.nightToHour;
};

/** The rules as written: per trip its reports, per kind the counter's deltas or the runs of qualifying pairs. */
function plainDayEvents(positions: DerivePosition[], trips: TripSpan[], limits: number[], t: BehaviourThresholds): DayEvents {
  const out: DayEvents = { harshAcceleration: 0, harshBraking: 0, sharpTurn: 0, speedingS: 0, nightS: 0, sources: [] };
  const inDay = (p: DerivePosition) => p.time >= LO && p.time < HI;
  const sources = new Set<'terminal' | 'computed'>();
  for (const trip of trips) {
    const pts = positions.filter((p) => p.time >= trip.begin && p.time <= trip.end);
    for (const kind of KINDS) {
      const counted = pts.filter((p) => terminalCounter(p, kind) !== null);
      if (counted.length) {
        sources.add('terminal');
        for (let i = 1; i < counted.length; i++) {
          if (!inDay(counted[i - 1])) continue;
          const before = terminalCounter(counted[i - 1], kind)!;
          const now = terminalCounter(counted[i], kind)!;
          out[kind] += now >= before ? now - before : now;
        }
        continue;
      }
      sources.add('computed');
      let inRun = false;
      for (let i = 1; i < pts.length; i++) {
        const hit = kindsOf(pts[i - 1], pts[i], t).has(kind);
        if (hit && !inRun && inDay(pts[i - 1])) out[kind]++;
        inRun = hit;
      }
    }
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      if (!inDay(a)) continue;
      const dt = Math.min((pts[i].time - a.time) / 1000, 60);
      if (a.speed > limits[positions.indexOf(a)]) out.speedingS += dt;
      if (a.speed >= 5 && night(a.time, t)) out.nightS += dt;
    }
  }
  return { ...out, speedingS: Math.round(out.speedingS), nightS: Math.round(out.nightS), sources: [...sources].sort() };
}

const report = fc.record({
  gapS: fc.oneof(fc.constant(1), fc.constant(2), fc.integer({ min: 1, max: 90 })),
  speed: fc.integer({ min: 0, max: 140 }),
  direction: fc.integer({ min: 0, max: 359 }),
  counter: fc.option(fc.record({ kind: fc.constantFrom(...KINDS), value: fc.integer({ min: 0, max: 9 }) }), { freq: 4 }),
  limit: fc.constantFrom(60, 100),
});

const day = fc.record({
  reports: fc.array(report, { minLength: 0, maxLength: 120 }),
  startS: fc.integer({ min: 0, max: 3_700 }),
  trips: fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2_000 })), { maxLength: 4 }),
});

const COUNTER_NAME: Record<Kind, string> = {
  harshAcceleration: 'harshAccelerationCount',
  harshBraking: 'harshBrakingCount',
  sharpTurn: 'harshCorneringCount',
};

type Report = { gapS: number; speed: number; direction: number; counter: { kind: Kind; value: number } | null; limit: number };

function positionsOf(reports: readonly Report[], startS: number): DerivePosition[] {
  let time = T0 + startS * 1000;
  return reports.map((r): DerivePosition => {
    time += r.gapS * 1000;
    const extras = r.counter ? { obdF3: { [COUNTER_NAME[r.counter.kind]]: r.counter.value } } : null;
    return {
      time,
      latitude: 31,
      longitude: 121,
      speed: r.speed,
      direction: r.direction,
      acc: true,
      alarm: 0,
      status: 0,
      mileageKm: null,
      fuelL: null,
      blind: false,
      extras,
    };
  });
}

describe('dayEvents, one walk per trip', () => {
  it('counts what the rules written out plainly count', () => {
    fc.assert(
      fc.property(day, ({ reports, startS, trips }) => {
        const positions = positionsOf(reports, startS);
        const spans = trips
          .map(([beginS, lengthS]) => ({ begin: T0 + beginS * 1000, end: T0 + (beginS + lengthS) * 1000 }))
          .sort((a, b) => a.begin - b.begin);
        const limits = reports.map((r) => r.limit);
        expect(dayEvents(positions, spans, LO, HI, limits, TZ, DEFAULT_THRESHOLDS)).toEqual(
          plainDayEvents(positions, spans, limits, DEFAULT_THRESHOLDS),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('carries a tally on over reports stored since as if it walked the trip afresh', () => {
    // A live pass: the last saw the reports before `cut`, the open trip ending at one of them; now
    // more reports are stored and the trip runs on (it may have ended anywhere since).
    fc.assert(
      fc.property(
        day,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 0, max: 8_000 }),
        ({ reports, startS }, cutAt, endAt, beginS, endS) => {
          const positions = positionsOf(reports, startS);
          if (!positions.length) return;
          const cut = 1 + (cutAt % positions.length);
          const before = positions.slice(0, cut);
          const begin = T0 + beginS * 1000;
          const then = { begin, end: Math.max(begin, before[endAt % cut].time) };
          const scope = { lo: LO, hi: HI, speedLimit: reports.map((r) => r.limit), timeZone: TZ, thresholds: DEFAULT_THRESHOLDS };
          const carried = tallyTrip(before, then, scope);
          const now = { begin, end: Math.max(begin + endS * 1000, carried.through) };
          expect(tallyTrip(positions, now, scope, carried)).toEqual(tallyTrip(positions, now, scope));
        },
      ),
      { numRuns: 400 },
    );
  });
});
