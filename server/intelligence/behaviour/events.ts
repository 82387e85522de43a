/**
 * Driving events of one local day from the reports (pure): harsh acceleration, harsh braking and
 * sharp turns, seconds over the speed limit, seconds driven at night. Only what happens inside a
 * trip counts. A pair of consecutive reports belongs to the day its first report falls on.
 */

import { firstAfter, firstAtOrAfter, type DerivePosition } from '../deriver';
import { zoneOffsetMinutes } from '../localDay';
import type { BehaviourThresholds } from './settings';

export interface TripSpan {
  begin: number;
  end: number;
}

export interface DayEvents {
  harshAcceleration: number;
  harshBraking: number;
  sharpTurn: number;
  speedingS: number;
  nightS: number;
  sources: Array<'terminal' | 'computed'>;
}

/** The kinds of event the safety score weighs (each a row of behaviour_event). */
export const EVENT_KINDS = ['harshAcceleration', 'harshBraking', 'sharpTurn', 'speeding', 'night', 'fatigue', 'distraction'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const SPEEDING_SEVERITIES = ['light', 'moderate', 'severe'] as const;
export type SpeedingSeverity = (typeof SPEEDING_SEVERITIES)[number];

/**
 * A speeding run's severity by its peak's excess over the limit in force there, on the steps China's
 * Road Traffic Safety Law fines by (under 20 %, 20–50 %, 50 % and more).
 */
export function speedingSeverity(peakKmh: number, limitKmh: number): SpeedingSeverity {
  const excess = limitKmh > 0 ? (peakKmh - limitKmh) / limitKmh : Infinity;
  return excess < 0.2 ? 'light' : excess < 0.5 ? 'moderate' : 'severe';
}

/** One event with its place: a harsh event, a speeding or night run, an alarm the score weighs. */
export interface EventMark {
  kind: EventKind;
  at: number;
  latitude: number;
  longitude: number;
  count: number;
  /** Seconds (runs only; unrounded while the run is walked). */
  durationS: number;
  /** Speeding runs: the peak speed and the limit there. */
  peakKmh: number | null;
  limitKmh: number | null;
  source: 'terminal' | 'computed' | 'alarm';
}

const markAt = (kind: EventKind, p: DerivePosition, source: EventMark['source'], count = 1): EventMark => ({
  kind,
  at: p.time,
  latitude: p.latitude,
  longitude: p.longitude,
  count,
  durationS: 0,
  peakKmh: null,
  limitKmh: null,
  source,
});

/** A gap longer than this between two reports is not counted as time at the first one's speed. */
const MAX_GAP_S = 60;
/** Moving, for night driving: the trip deriver's own speed. */
const MOVING_KMH = 5;

type Kind = 'harshAcceleration' | 'harshBraking' | 'sharpTurn';
const COUNTER: Record<Kind, string> = {
  harshAcceleration: 'harshAccelerationCount',
  harshBraking: 'harshBrakingCount',
  sharpTurn: 'harshCorneringCount',
};
const KINDS: Kind[] = ['harshAcceleration', 'harshBraking', 'sharpTurn'];
/** Each kind's bit in computedKinds' answer. */
const BIT: Record<Kind, number> = { harshAcceleration: 1, harshBraking: 2, sharpTurn: 4 };

/** The terminal's own harsh-event counter (vendor OBD item 0xF3 / 0x0112–0x0114), when it reports one. */
export function terminalCounter(p: DerivePosition, kind: Kind): number | null {
  const x = p.extras as { obdF3?: Record<string, unknown>; obd?: Record<string, unknown> } | null;
  const v = x?.obdF3?.[COUNTER[kind]] ?? x?.obd?.[COUNTER[kind]];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Smallest angle between two headings, degrees. */
const turnDeg = (a: number, b: number) => {
  const d = Math.abs(b - a) % 360;
  return d > 180 ? 360 - d : d;
};

/** The kinds the pair shows (BIT), by speed and heading change (none when too far apart). */
function computedKinds(a: DerivePosition, b: DerivePosition, t: BehaviourThresholds): number {
  const dt = (b.time - a.time) / 1000;
  if (!(dt > 0 && dt <= t.withinS)) return 0;
  let out = 0;
  const perWindow = ((b.speed - a.speed) / dt) * t.withinS;
  if (perWindow >= t.harshAccelerationKmh) out |= BIT.harshAcceleration;
  if (-perWindow >= t.harshBrakingKmh) out |= BIT.harshBraking;
  const mean = (a.speed + b.speed) / 2;
  const lateral = (mean / 3.6) * ((turnDeg(a.direction, b.direction) * Math.PI) / 180 / dt);
  if (Math.min(a.speed, b.speed) >= t.sharpTurnMinKmh && lateral >= t.sharpTurnMs2) out |= BIT.sharpTurn;
  return out;
}

const inNight = (ms: number, timeZone: string, t: BehaviourThresholds) => {
  const hour = Math.floor(((((ms / 60_000 + zoneOffsetMinutes(ms, timeZone)) % 1440) + 1440) % 1440) / 60);
  return t.nightFromHour <= t.nightToHour
    ? hour >= t.nightFromHour && hour < t.nightToHour
    : hour >= t.nightFromHour || hour < t.nightToHour;
};

/** One kind's count in a trip, both ways: the terminal's counter (used when it reports one) and speed and heading. */
interface KindTally {
  counted: boolean;
  counterSum: number;
  /** The last report with a counter, and its value. */
  lastTime: number;
  lastValue: number;
  computed: number;
  inRun: boolean;
  /** Each rise of the counter, and each event from speed and heading, with its place. */
  counterMarks: EventMark[];
  computedMarks: EventMark[];
}

/** What the walk over one trip's reports has counted so far: a later pass carries on from it. */
export interface TripTally {
  /** The device time of the last report walked; every report of the trip up to it was. */
  through: number;
  kinds: KindTally[];
  speedingS: number;
  nightS: number;
  /** The trip's speeding and night runs in the day; the last one is still going while `…Open`. */
  speedingRuns: EventMark[];
  speedingOpen: boolean;
  nightRuns: EventMark[];
  nightOpen: boolean;
}

const copyMarks = (marks: readonly EventMark[]) => marks.map((m) => ({ ...m }));

/** The day's events and the limit in force: one km/h for the day, or per report by its index in `positions`. */
export interface DayScope {
  lo: number;
  hi: number;
  speedLimit: number | readonly number[];
  timeZone: string;
  thresholds: BehaviourThresholds;
}

/**
 * One trip's share of the day [lo, hi): pairs of consecutive reports inside the trip whose first
 * lies in the day. `from`, the tally of an earlier walk over the same trip whose reports up to its
 * `through` are unchanged, is carried on from instead of walking them again. No per-pair
 * allocation: a pass runs this for every vehicle-day it touches.
 */
export function tallyTrip(positions: readonly DerivePosition[], trip: TripSpan, scope: DayScope, from?: TripTally): TripTally {
  const { lo, hi, speedLimit, timeZone, thresholds: t } = scope;
  const tally: TripTally = from
    ? {
        through: from.through,
        kinds: from.kinds.map((k) => ({ ...k, counterMarks: copyMarks(k.counterMarks), computedMarks: copyMarks(k.computedMarks) })),
        speedingS: from.speedingS,
        nightS: from.nightS,
        speedingRuns: copyMarks(from.speedingRuns),
        speedingOpen: from.speedingOpen,
        nightRuns: copyMarks(from.nightRuns),
        nightOpen: from.nightOpen,
      }
    : {
        through: -Infinity,
        kinds: KINDS.map((): KindTally => ({
          counted: false,
          counterSum: 0,
          lastTime: NaN,
          lastValue: 0,
          computed: 0,
          inRun: false,
          counterMarks: [],
          computedMarks: [],
        })),
        speedingS: 0,
        nightS: 0,
        speedingRuns: [],
        speedingOpen: false,
        nightRuns: [],
        nightOpen: false,
      };
  const inDay = (time: number) => time >= lo && time < hi;
  const first = Math.max(firstAtOrAfter(positions, trip.begin), from ? firstAfter(positions, from.through) : 0);
  const end = firstAfter(positions, trip.end);
  for (let i = first; i < end; i++) {
    const b = positions[i];
    if (b.extras)
      KINDS.forEach((kind, k) => {
        const now = terminalCounter(b, kind);
        if (now === null) return;
        const kt = tally.kinds[k];
        // A counter that falls was reset: what it shows now happened since.
        if (kt.counted && inDay(kt.lastTime)) {
          const rise = now >= kt.lastValue ? now - kt.lastValue : now;
          kt.counterSum += rise;
          if (rise > 0) kt.counterMarks.push(markAt(kind, b, 'terminal', rise));
        }
        kt.counted = true;
        kt.lastTime = b.time;
        kt.lastValue = now;
      });
    tally.through = b.time;
    // The trip's first report pairs with nothing before it.
    if (i === 0 || positions[i - 1].time < trip.begin) continue;
    const a = positions[i - 1];
    const aInDay = inDay(a.time);
    // Consecutive qualifying pairs are one event (a hard stop over several reports).
    const hits = computedKinds(a, b, t);
    KINDS.forEach((kind, k) => {
      const kt = tally.kinds[k];
      const hit = (hits & BIT[kind]) !== 0;
      if (hit && !kt.inRun && aInDay) {
        kt.computed++;
        kt.computedMarks.push(markAt(kind, b, 'computed'));
      }
      kt.inRun = hit;
    });
    if (!aInDay) {
      tally.speedingOpen = tally.nightOpen = false;
      continue;
    }
    const dt = Math.min((b.time - a.time) / 1000, MAX_GAP_S);
    const limit = typeof speedLimit === 'number' ? speedLimit : speedLimit[i - 1];
    // Consecutive pairs over the limit are one run; its peak is the pair furthest over (by share).
    if (a.speed > limit) {
      tally.speedingS += dt;
      if (!tally.speedingOpen) tally.speedingRuns.push({ ...markAt('speeding', a, 'computed'), peakKmh: a.speed, limitKmh: limit });
      tally.speedingOpen = true;
      const run = tally.speedingRuns[tally.speedingRuns.length - 1];
      run.durationS += dt;
      if (run.peakKmh === null || run.limitKmh === null || a.speed * run.limitKmh > run.peakKmh * limit) {
        run.peakKmh = a.speed;
        run.limitKmh = limit;
      }
    } else tally.speedingOpen = false;
    if (a.speed >= MOVING_KMH && inNight(a.time, timeZone, t)) {
      tally.nightS += dt;
      if (!tally.nightOpen) tally.nightRuns.push(markAt('night', a, 'computed'));
      tally.nightOpen = true;
      tally.nightRuns[tally.nightRuns.length - 1].durationS += dt;
    } else tally.nightOpen = false;
  }
  return tally;
}

/** The day's events from its trips' tallies. */
export function eventsOfTallies(tallies: readonly TripTally[]): DayEvents {
  const out: DayEvents = { harshAcceleration: 0, harshBraking: 0, sharpTurn: 0, speedingS: 0, nightS: 0, sources: [] };
  const sources = new Set<'terminal' | 'computed'>();
  for (const tally of tallies) {
    // Per kind: the terminal's counter when it reports one during the trip, else speed and heading.
    KINDS.forEach((kind, k) => {
      const kt = tally.kinds[k];
      sources.add(kt.counted ? 'terminal' : 'computed');
      out[kind] += kt.counted ? kt.counterSum : kt.computed;
    });
    out.speedingS += tally.speedingS;
    out.nightS += tally.nightS;
  }
  out.speedingS = Math.round(out.speedingS);
  out.nightS = Math.round(out.nightS);
  out.sources = [...sources].sort();
  return out;
}

/** The day's events with their places from its trips' tallies (per kind, from the same source as the counts), by time. */
export function marksOfTallies(tallies: readonly TripTally[]): EventMark[] {
  const out: EventMark[] = [];
  for (const tally of tallies) {
    KINDS.forEach((_kind, k) => {
      const kt = tally.kinds[k];
      out.push(...(kt.counted ? kt.counterMarks : kt.computedMarks));
    });
    out.push(...tally.speedingRuns, ...tally.nightRuns);
  }
  return out.sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind));
}

/**
 * Events of the day [lo, hi). `positions` are in device-time order and may begin before `lo` (the
 * report before the day pairs with its first); `speedLimit` is km/h, one for the day or the limit
 * in force at each report (by its index in `positions`: a fence's limit inside it).
 */
export function dayEvents(
  positions: readonly DerivePosition[],
  trips: readonly TripSpan[],
  lo: number,
  hi: number,
  speedLimit: number | readonly number[],
  timeZone: string,
  thresholds: BehaviourThresholds,
): DayEvents {
  const scope: DayScope = { lo, hi, speedLimit, timeZone, thresholds };
  return eventsOfTallies(trips.map((trip) => tallyTrip(positions, trip, scope)));
}
