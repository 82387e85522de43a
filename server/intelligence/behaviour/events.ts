/**
 * Driving events of one local day from the reports (pure): harsh acceleration, harsh braking and
 * sharp turns, seconds over the speed limit, seconds driven at night. Only what happens inside a
 * trip counts. A pair of consecutive reports belongs to the day its first report falls on.
 */

import type { DerivePosition } from '../deriver';
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

/** A gap longer than this between two reports is not counted as time at the first one's speed. */
const MAX_GAP_S = 60;
/** Moving, for night driving: the trip deriver's own speed. */
const MOVING_KMH = 5;

type Kind = 'harshAcceleration' | 'harshBraking' | 'sharpTurn';
const COUNTER: Record<Kind, string> = { harshAcceleration: 'harshAccelerationCount', harshBraking: 'harshBrakingCount', sharpTurn: 'harshCorneringCount' };
const KINDS: Kind[] = ['harshAcceleration', 'harshBraking', 'sharpTurn'];

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

/** Which of the pair's kinds it shows, by speed and heading change (none when too far apart). */
function computedKinds(a: DerivePosition, b: DerivePosition, t: BehaviourThresholds): Set<Kind> {
  const out = new Set<Kind>();
  const dt = (b.time - a.time) / 1000;
  if (!(dt > 0 && dt <= t.withinS)) return out;
  const perWindow = ((b.speed - a.speed) / dt) * t.withinS;
  if (perWindow >= t.harshAccelerationKmh) out.add('harshAcceleration');
  if (-perWindow >= t.harshBrakingKmh) out.add('harshBraking');
  const mean = (a.speed + b.speed) / 2;
  const lateral = (mean / 3.6) * ((turnDeg(a.direction, b.direction) * Math.PI) / 180 / dt);
  if (Math.min(a.speed, b.speed) >= t.sharpTurnMinKmh && lateral >= t.sharpTurnMs2) out.add('sharpTurn');
  return out;
}

const inNight = (ms: number, timeZone: string, t: BehaviourThresholds) => {
  const hour = Math.floor((((ms / 60_000 + zoneOffsetMinutes(ms, timeZone)) % 1440) + 1440) % 1440 / 60);
  return t.nightFromHour <= t.nightToHour ? hour >= t.nightFromHour && hour < t.nightToHour : hour >= t.nightFromHour || hour < t.nightToHour;
};

/**
 * Events of the day [lo, hi). `positions` are in device-time order and may begin before `lo` (the
 * report before the day pairs with its first); `speedLimit` is km/h, one for the day or the limit
 * in force at each report (a fence's limit inside it).
 */
export function dayEvents(positions: readonly DerivePosition[], trips: readonly TripSpan[], lo: number, hi: number, speedLimit: number | ((p: DerivePosition) => number), timeZone: string, t: BehaviourThresholds): DayEvents {
  const limitAt = typeof speedLimit === 'number' ? () => speedLimit : speedLimit;
  const out: DayEvents = { harshAcceleration: 0, harshBraking: 0, sharpTurn: 0, speedingS: 0, nightS: 0, sources: [] };
  const sources = new Set<'terminal' | 'computed'>();
  for (const trip of trips) {
    const pts = positions.filter((p) => p.time >= trip.begin && p.time <= trip.end);
    // Per kind: the terminal's counter when it reports one during the trip, else speed and heading.
    for (const kind of KINDS) {
      const counted = pts.filter((p) => terminalCounter(p, kind) !== null);
      if (counted.length) {
        sources.add('terminal');
        for (let i = 1; i < counted.length; i++) {
          if (counted[i - 1].time < lo || counted[i - 1].time >= hi) continue;
          // A counter that falls was reset: what it shows now happened since.
          const before = terminalCounter(counted[i - 1], kind)!;
          const now = terminalCounter(counted[i], kind)!;
          out[kind] += now >= before ? now - before : now;
        }
        continue;
      }
      sources.add('computed');
      // Consecutive qualifying pairs are one event (a hard stop over several reports).
      let inRun = false;
      for (let i = 1; i < pts.length; i++) {
        const hit = computedKinds(pts[i - 1], pts[i], t).has(kind);
        if (hit && !inRun && pts[i - 1].time >= lo && pts[i - 1].time < hi) out[kind]++;
        inRun = hit;
      }
    }
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      if (a.time < lo || a.time >= hi) continue;
      const dt = Math.min((pts[i].time - a.time) / 1000, MAX_GAP_S);
      if (a.speed > limitAt(a)) out.speedingS += dt;
      if (a.speed >= MOVING_KMH && inNight(a.time, timeZone, t)) out.nightS += dt;
    }
  }
  out.speedingS = Math.round(out.speedingS);
  out.nightS = Math.round(out.nightS);
  out.sources = [...sources].sort();
  return out;
}
