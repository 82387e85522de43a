/**
 * The AI alarms (definitions in README):
 * - RepeatArrival: a stop that is the count-th stop within the radius of the same place inside
 *   the window (unplanned visits);
 * - Skewing: during a task with a planned route, the vehicle is more than the corridor's metres
 *   off the route for the policy's minutes.
 */

import { lineString, point } from '@turf/helpers';
import pointToLineDistance from '@turf/point-to-line-distance';
import type { DerivePosition } from '../../deriver';
import type { AlarmInterval } from '../types';
import type { AlarmPolicy } from '../policies';
import { HOUR, MINUTE } from './motionRules';
import * as motionRules from './motionRules';
import { conditionRuns, heldMs } from './runs';
import { standing } from './policyRules';

/** Read once: under tsx an imported binding is a getter call on every use, and these run per report (trips/segment.ts). */
const { metresBetween } = motionRules;

export const AI_DEFAULTS = {
  repeatRadiusM: 200,
  repeatCount: 3,
  repeatWindowHours: 24,
  /** A stop shorter than this is traffic, not a visit. */
  repeatMinStopMinutes: 3,
  corridorM: 500,
  skewMinutes: 5,
} as const;

export interface RepeatParams {
  radiusM: number;
  count: number;
  windowMs: number;
}

/** RepeatArrival under its policy: `params` first, then `threshold` as the count, `durationMinutes` as the window. */
export const repeatParams = (policy: Pick<AlarmPolicy, 'params' | 'threshold' | 'durationMinutes'>): RepeatParams => ({
  radiusM: policy.params.radiusM ?? AI_DEFAULTS.repeatRadiusM,
  count: policy.params.count ?? policy.threshold ?? AI_DEFAULTS.repeatCount,
  windowMs:
    policy.params.windowHours !== undefined
      ? policy.params.windowHours * HOUR
      : (policy.durationMinutes ?? AI_DEFAULTS.repeatWindowHours * 60) * MINUTE,
});

/** How long a stop must hold to be a visit. */
export const REPEAT_MIN_STOP_MS = AI_DEFAULTS.repeatMinStopMinutes * MINUTE;

/**
 * The alarm begins at the visit's first report and fires once the stop has held long enough to be
 * a visit (before, it was only known at its begin, which no batch could raise in time).
 */
export function repeatArrival(positions: readonly DerivePosition[], p: RepeatParams): AlarmInterval[] {
  const stops = conditionRuns(positions, standing)
    .filter((r) => heldMs(r) >= REPEAT_MIN_STOP_MS)
    .map((r) => r.points[0]);
  const out: AlarmInterval[] = [];
  for (let k = 0; k < stops.length; k++) {
    const s = stops[k];
    const near = stops.slice(0, k + 1).filter((o) => s.time - o.time <= p.windowMs && metresBetween(o, s) <= p.radiusM);
    if (near.length === p.count)
      out.push({
        type: 'RepeatArrival',
        subject: '',
        begin: s.time,
        end: s.time,
        firedAt: s.time + REPEAT_MIN_STOP_MS,
        latitude: s.latitude,
        longitude: s.longitude,
        value: near.length,
        detail: { radiusM: p.radiusM, windowHours: p.windowMs / HOUR, visits: near.map((o) => new Date(o.time).toISOString()) },
      });
  }
  return out;
}

export interface RouteTask {
  id: number;
  name: string;
  /** [[lng, lat], …] */
  line: number[][];
  begin: number;
  end: number;
}

/** Skewing under its policy: the corridor's half-width (`threshold`, metres) and how long the vehicle must be outside it. */
export interface SkewRule {
  corridorM: number;
  minMs: number;
}

export const skewRule = (policy: Pick<AlarmPolicy, 'threshold' | 'durationMinutes'>): SkewRule => ({
  corridorM: policy.threshold ?? AI_DEFAULTS.corridorM,
  minMs: (policy.durationMinutes ?? AI_DEFAULTS.skewMinutes) * MINUTE,
});

/** Metres from a report to the task's route. */
export function routeDistance(task: RouteTask): (x: { latitude: number; longitude: number }) => number {
  const line = lineString(task.line);
  return (x) => pointToLineDistance(point([x.longitude, x.latitude]), line, { units: 'kilometers' }) * 1000;
}

/** Whether a task's route can be measured against (a line has two points at least). */
export const hasRoute = (task: RouteTask) => task.line.length >= 2;

/**
 * Skewing off each task's route. `prefixes`: per task id, reports to read before these (a carried
 * run's first report and the one before these: alarms/carry.ts), so a run open before them goes on
 * from its first report.
 */
export function skewing(
  positions: readonly DerivePosition[],
  tasks: readonly RouteTask[],
  rule: SkewRule,
  prefixes: ReadonlyMap<number, readonly DerivePosition[]> = new Map(),
): AlarmInterval[] {
  const { corridorM, minMs } = rule;
  const out: AlarmInterval[] = [];
  for (const task of tasks) {
    if (!hasRoute(task)) continue;
    const off = routeDistance(task);
    const prefix = prefixes.get(task.id);
    const during = (prefix ? [...prefix, ...positions] : positions).filter((x) => x.time >= task.begin && x.time <= task.end);
    for (const r of conditionRuns(during, (x) => off(x) > corridorM)) {
      if (heldMs(r) < minMs) continue;
      const first = r.points[0];
      out.push({
        type: 'Skewing',
        subject: `task:${task.id}`,
        begin: first.time,
        end: r.clearedBy?.time ?? (r.points[r.points.length - 1].time >= task.end ? task.end : null),
        firedAt: first.time + minMs,
        latitude: first.latitude,
        longitude: first.longitude,
        value: Math.round(Math.max(...r.points.map(off))),
        detail: { taskId: task.id, taskName: task.name, corridorM },
      });
    }
  }
  return out;
}
