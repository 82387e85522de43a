/**
 * OverSpeed, Idle, Fatigue, Trail, StopLongTime, Skewing and RepeatArrival raised as soon as the
 * batch that completes them is committed, like Low (lowAlarms.ts), instead of a derivation pass
 * later: under load a pass takes seconds (README, Benchmarks: Alarms), which the budget of report →
 * alarm under 1 s does not leave them.
 *
 * Each vehicle's current run of the condition (speeding; idling; driving without the rest; the
 * ignition off; standing still; off a task's route; a stop) is followed here, report by report,
 * with the deriver's own rule; that is only a filter. When it sees a run fire (its duration
 * reached, the terminal's speeding bit come on, the vehicle further than the Trail policy's metres
 * from where the ignition went off), the alarms are found again by the deriver's own rules (merged
 * with the type's alarm-word bits) over the stored reports from before the run began, never
 * further back than the pass itself reads (its look-back before the batch; for Trail, back to
 * where the ignition went off: ignitionReach.ts; for RepeatArrival, the policy's window). They are
 * stored only where nothing from before the stretch can reach into them: when the condition, and
 * the type's bits, do not hold at the stretch's first report; for Fatigue, when a rest of the
 * policy's minutes within the stretch came first; for a fence's speed limit, when the vehicle had
 * settled on each such fence's side before the run. Then the pass finds the same alarms (same key:
 * begin), keeps their ids and announces nothing twice. A run first seen after a restart, or one
 * that began further back than the look-back, is left to the pass.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DerivePosition } from '../deriver';
import type { DeriveLookups } from '../settingsCache';
import { loadPositionsMany } from '../windowLoad';
import { firedFromBatch, storeFoundAheadOfPass, type FoundAhead, type LiveVehicle } from './aheadOfPass';
import { lookbackMs } from './deriver';
import { alarmWordIntervals, bitsOf } from './detectors/alarmWord';
import { fenceIntervals, inside, limitsSpeed, type FenceRule } from './detectors/fences';
import * as motionRules from './detectors/motionRules';
import {
  fatigue,
  fatigueRule,
  fatigueSettled,
  FatigueRun,
  idle,
  idleRule,
  overSpeed,
  overSpeedRule,
  standing,
  stopLongTime,
  stopMs,
  trail,
  trailMetres,
  type MotionFix,
} from './detectors/policyRules';
import { mergeIntervals } from './merge';
import {
  hasRoute,
  repeatArrival,
  repeatParams,
  REPEAT_MIN_STOP_MS,
  routeDistance,
  skewing,
  skewRule,
  type RouteTask,
} from './detectors/aiRules';
import { routeTasksMany } from './routeTasks';
import type { AlarmPolicy, PolicySet } from './policies';
import type { RaisedAlarm } from './store';
import type { AlarmInterval, AlarmType } from './types';

/** A committed report, as this path needs it. */
export interface DurationReport extends MotionFix {
  vehicleId: number;
  /** The alarm word, unsigned. */
  alarm: number;
  blind: boolean;
}

/** A report as the rules read it: what both a committed report and a stored position carry. */
type Fix = MotionFix & { alarm: number };

export type DurationType = 'OverSpeed' | 'Idle' | 'Fatigue' | 'Trail' | 'StopLongTime' | 'Skewing' | 'RepeatArrival';

/** Follows one vehicle's reports in order: answers, at a report where a run fires, when that run began (once per run); else null. */
type Follower = (p: Fix) => number | null;

/** One type's rule for one vehicle, from its policies (and fences). */
interface DurationRule {
  /** A follower starting afresh. */
  follow(): Follower;
  /** What the follower was made for besides the policy (Skewing's tasks): a follower made for another starts afresh. */
  key?: string;
  /** Where the stretch read for a run that began at `since` starts, at the earliest `floor` (the pass's look-back before the batch). */
  readFrom(since: number, floor: number): number;
  /**
   * The type's alarms in this stretch (read for a run that began at `since`), found and merged as
   * the pass finds and merges them, that the pass will find the same; null: none can be told.
   */
  detect(positions: readonly DerivePosition[], since: number): AlarmInterval[] | null;
}

/** Read once: under tsx an imported binding is a getter call on every use, and these run per report (policyRules.ts). */
const { metresBetween, MINUTE } = motionRules;

const SPEEDING_BIT = 1;
const speedingBit = (p: Fix) => ((p.alarm >>> SPEEDING_BIT) & 1) === 1;
/** The type's alarms in these positions as the deriver merges them: its bits' and the policy rule's. */
const withBits = (type: AlarmType, positions: readonly DerivePosition[], found: readonly AlarmInterval[]) =>
  mergeIntervals([...alarmWordIntervals(positions), ...found]).filter((a) => a.type === type);
/**
 * Tells nothing when one of the type's bits is set at the stretch's first report: that bit's alarm
 * may have begun before the stretch, and the deriver merges it with the policy's.
 */
const noBitAtStart = (bits: number, positions: readonly DerivePosition[]) => positions.length > 0 && (positions[0].alarm & bits) === 0;

/**
 * The rule of a condition that holds report by report (as conditionRuns splits runs): `holds`
 * whether it holds at `p` in a run begun at `first` (null: whether `p` would begin one), `fires`
 * whether the run begun at `first` has fired by `p`; `endFires`, whether a run that had not fired
 * fires at `p`, the report that ends it (measured to it). The stretch starts a minute before the
 * run, and tells nothing when the condition already holds at its first report.
 */
function conditionRule(
  holds: (p: Fix, first: Fix | null) => boolean,
  fires: (first: Fix, p: Fix) => boolean,
  detect: (positions: readonly DerivePosition[]) => AlarmInterval[],
  endFires?: (first: Fix, p: Fix) => boolean,
): DurationRule {
  return {
    follow() {
      let first: Fix | null = null;
      let fired = false;
      return (p) => {
        let ended: number | null = null;
        if (!first || !holds(p, first)) {
          if (first && !fired && endFires?.(first, p)) ended = first.time;
          first = holds(p, null) ? fixOf(p) : null;
          fired = false;
        }
        if (ended !== null) return ended;
        if (!first || fired || !fires(first, p)) return null;
        fired = true;
        return first.time;
      };
    },
    readFrom: (since, floor) => Math.max(floor, since - MINUTE),
    // Holding at the stretch's start: the run may have begun before it, where the pass may see it begin.
    detect: (positions) => (!positions.length || holds(positions[0], null) ? null : detect(positions)),
  };
}

const fatigueBits = bitsOf('Fatigue');
const trailBits = bitsOf('Trail');
const stopBits = bitsOf('StopLongTime');

/**
 * StopLongTime's rule: a stop lasts until the vehicle moves (stopLongTime), so a run fires at the
 * standing report that reaches the policy's time, or at the report that ends it having lasted that
 * long (a parked terminal gone quiet: the clock may have raised it first, under the same key).
 */
function stopRule(policy: AlarmPolicy): DurationRule {
  const minMs = stopMs(policy);
  const lasted = (first: Fix, p: Fix) => p.time - first.time >= minMs;
  const rule = conditionRule(standing, lasted, (positions) => withBits('StopLongTime', positions, stopLongTime(positions, policy)), lasted);
  return { ...rule, detect: (positions, since) => (noBitAtStart(stopBits, positions) ? rule.detect(positions, since) : null) };
}

/**
 * Skewing's rule: the run is the vehicle outside the corridor of a task under way, as `skewing`
 * measures it per task; the stretch tells nothing when that holds at its first report.
 */
function skewRuleOf(policy: AlarmPolicy, tasks: readonly RouteTask[]): DurationRule | null {
  const routed = tasks.filter(hasRoute);
  if (!routed.length) return null;
  const rule = skewRule(policy);
  const measured = routed.map((task) => ({ task, off: routeDistance(task) }));
  const outside = (p: Fix) => measured.some(({ task, off }) => p.time >= task.begin && p.time <= task.end && off(p) > rule.corridorM);
  return {
    ...conditionRule(
      outside,
      (first, p) => p.time - first.time >= rule.minMs,
      (positions) => skewing(positions, routed, rule),
    ),
    key: routed.map((t) => `${t.id}:${t.begin}:${t.end}:${t.line.length}`).join(','),
  };
}

/**
 * RepeatArrival's rule: the run is a stop, which fires once it has held long enough to be a visit;
 * then every visit within the policy's window before it counts, so the stretch is read from that
 * far back (the pass, for an alarm in its window, reads as far). It tells nothing when it begins
 * inside a stop within that window, whose first report it cannot know.
 */
function repeatRule(policy: AlarmPolicy): DurationRule {
  const params = repeatParams(policy);
  return {
    // Its own stretch and test of it (below): the visits before this one count, not just the run.
    follow: conditionRule(
      standing,
      (first, p) => p.time - first.time >= REPEAT_MIN_STOP_MS,
      () => [],
    ).follow,
    readFrom: (since) => since - params.windowMs - MINUTE,
    detect: (positions, since) =>
      !positions.length || (standing(positions[0], null) && positions[0].time >= since - params.windowMs)
        ? null
        : repeatArrival(positions, params),
  };
}

/** The rule this path follows for a vehicle; null when it cannot raise the type ahead of the pass. */
export function durationRule(
  type: DurationType,
  policies: PolicySet,
  fences: readonly FenceRule[],
  tasks: readonly RouteTask[] = [],
): DurationRule | null {
  if (type === 'Skewing') {
    const policy = policies.get('Skewing');
    return policy ? skewRuleOf(policy, tasks) : null;
  }
  if (type === 'RepeatArrival') {
    const policy = policies.get('RepeatArrival');
    return policy ? repeatRule(policy) : null;
  }
  if (type === 'Trail') {
    const policy = policies.get('Trail');
    if (!policy) return null;
    const metres = trailMetres(policy);
    // The run is the ignition off, its anchor the first report of it (trail's own).
    const rule = conditionRule(
      (p) => !p.acc,
      (first, p) => metresBetween(first, p) > metres,
      (positions) => withBits('Trail', positions, trail(positions, policy)),
    );
    return {
      ...rule,
      // The pass reaches back to the last report with the ignition on before the run
      // (ignitionReach.ts), however long ago the run began: so the stretch starts a minute before
      // the run, past the look-back, and is read from that report (not always its first).
      readFrom: (since) => since - MINUTE,
      detect(positions, since) {
        let on = -1;
        for (let i = 0; i < positions.length && positions[i].time < since; i++) if (positions[i].acc) on = i;
        const from = on < 0 ? [] : positions.slice(on);
        return noBitAtStart(trailBits, from) ? rule.detect(from, since) : null;
      },
    };
  }
  if (type === 'Fatigue') {
    const policy = policies.get('Fatigue');
    if (!policy) return null;
    const rule = fatigueRule(policy);
    return {
      follow() {
        const run = new FatigueRun(rule);
        let fired: number | null = null;
        return (p) => {
          run.step(p);
          if (!run.tired(p) || run.driveStart!.time === fired) return null;
          return (fired = run.driveStart!.time);
        };
      },
      // The driving began within the limit of the batch and a rest came before it: the whole look-back.
      readFrom: (_since, floor) => floor,
      detect(positions) {
        const settled = noBitAtStart(fatigueBits, positions) ? fatigueSettled(positions, policy) : null;
        return settled === null ? null : withBits('Fatigue', positions, fatigue(positions, policy)).filter((a) => a.begin >= settled);
      },
    };
  }
  if (type === 'StopLongTime') {
    const policy = policies.get('StopLongTime');
    return policy ? stopRule(policy) : null;
  }
  if (type === 'Idle') {
    const policy = policies.get('Idle');
    if (!policy) return null;
    const { holds, minMs } = idleRule(policy);
    return conditionRule(
      holds,
      (first, p) => p.time - first.time >= minMs,
      (positions) => idle(positions, policy),
    );
  }
  const policy = policies.get('OverSpeed');
  const rule = policy ? overSpeedRule(policy) : null;
  const fast = (p: Fix) => rule !== null && p.speed > rule.limitKmh;
  const limiting = fences.filter(limitsSpeed);
  // Over a fence's limit inside it, settled or not: the follower is only a filter.
  const fastInFence = (p: Fix) => limiting.some((f) => p.speed > f.speedLimit! && inside(f.area, p));
  const speeding = conditionRule(
    // The terminal's bit, the policy's limit and the fences' are one alarm (merged by the deriver).
    (p) => speedingBit(p) || fast(p) || fastInFence(p),
    (first, p) => speedingBit(p) || fastInFence(p) || (rule !== null && fast(p) && p.time - first.time >= rule.minMs),
    (positions) =>
      withBits('OverSpeed', positions, [
        ...(policy ? overSpeed(positions, policy) : []),
        ...limiting.flatMap((f) => fenceIntervals(positions, f).filter((a) => a.type === 'OverSpeed')),
      ]),
  );
  if (!limiting.length) return speeding;
  // A fence's limit holds once the vehicle has settled inside it (its dwell): the stretch reaches
  // back far enough for each fence's side to settle before the run, and tells nothing unless it has.
  const longestDwellMs = Math.max(...limiting.map((f) => f.dwellSeconds * 1000));
  return {
    ...speeding,
    readFrom: (since, floor) => Math.max(floor, since - MINUTE - 2 * longestDwellMs),
    detect: (positions, since) => (limiting.every((f) => settledBefore(positions, f, since)) ? speeding.detect(positions, since) : null),
  };
}

/**
 * Whether, before `since`, the stretch has a report where the vehicle has stayed on one side of the
 * fence for its dwell (counted within the stretch) and is not over its limit inside it. From there
 * the fence's walk (settleStep) is in the same state wherever it began (the pass's reads from
 * further back), so the fence's speeding found after it is the pass's.
 */
function settledBefore(positions: readonly DerivePosition[], fence: FenceRule, since: number): boolean {
  const dwellMs = fence.dwellSeconds * 1000;
  let side: boolean | null = null;
  let sideFrom = 0;
  for (const p of positions) {
    if (p.time >= since) return false;
    const now = inside(fence.area, p);
    if (now !== side) {
      side = now;
      sideFrom = p.time;
    }
    if (p.time - sideFrom >= dwellMs && !(now && p.speed > fence.speedLimit!)) return true;
  }
  return false;
}

/** What is followed of a vehicle: its last report, and its follower. */
interface RunMemory {
  time: number;
  follow: Follower;
  key: string | undefined;
}

/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 200_000;

const fixOf = (r: Fix): Fix => ({ time: r.time, latitude: r.latitude, longitude: r.longitude, speed: r.speed, acc: r.acc, alarm: r.alarm });

export class DurationAlarms {
  private readonly runs = new Map<number, RunMemory>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly type: DurationType,
  ) {}

  /** Stores the alarms of this type these committed reports complete; answers those it created, with the organisation path. */
  async raise(vehicles: ReadonlyArray<LiveVehicle<DurationReport>>, lookups: DeriveLookups): Promise<RaisedAlarm[]> {
    if (this.runs.size > MAX_REMEMBERED) this.runs.clear();
    // Only vehicles whose reports can matter: a policy of the type, or the speeding bit.
    const candidates = vehicles.filter((v) => {
      // A speeding run of the bit alone ends in a batch without the bit: forgetting it there is the same.
      const relevant = v.policies.has(this.type) || (this.type === 'OverSpeed' && v.reports.some(speedingBit));
      if (!relevant) this.runs.delete(v.vehicleId);
      return relevant;
    });
    if (!candidates.length) return [];
    const fencesOf = this.type === 'OverSpeed' ? await Promise.all(candidates.map((c) => lookups.fences(c.vehicleId, c.orgPath))) : null;
    // Skewing's tasks with a route under way in the batch or its look-back: one statement for the vehicles.
    const tasksOf =
      this.type === 'Skewing'
        ? await routeTasksMany(
            this.db,
            candidates.map((c) => ({
              vehicleId: c.vehicleId,
              from: c.reports[0].time - lookbackMs(c.policies),
              to: c.reports[c.reports.length - 1].time + 1,
            })),
          )
        : null;
    const fired: Array<{
      vehicleId: number;
      orgPath: string;
      rule: DurationRule;
      since: number;
      from: number;
      to: number;
      batchFrom: number;
    }> = [];
    for (const [i, { vehicleId, orgPath, reports: list, policies }] of candidates.entries()) {
      const rule = durationRule(this.type, policies, fencesOf?.[i] ?? [], tasksOf?.[i]);
      if (!rule) {
        this.runs.delete(vehicleId);
        continue;
      }
      const since = this.follow(vehicleId, list, rule);
      if (since === null) continue;
      // From before the run began, but no further back than the pass reads at least.
      fired.push({
        vehicleId,
        orgPath,
        rule,
        since,
        from: rule.readFrom(since, list[0].time - lookbackMs(policies)),
        to: list[list.length - 1].time + 1,
        batchFrom: list[0].time,
      });
    }
    if (!fired.length) return [];
    const stretches = await loadPositionsMany(this.db, fired);
    const found: FoundAhead[] = [];
    for (const [i, { vehicleId, orgPath, rule, since, batchFrom }] of fired.entries()) {
      const positions = stretches[i];
      const alarms = rule.detect(positions, since);
      if (!alarms) continue;
      found.push({ vehicleId, orgPath, found: alarms, firedFrom: firedFromBatch(positions, batchFrom) });
    }
    return storeFoundAheadOfPass(this.db, found);
  }

  /**
   * Follows the vehicle's runs through these reports (newer than the last followed; an older report
   * makes the memory unsure, so it starts afresh); answers the begin of the first run that fired in
   * them, or null.
   */
  private follow(vehicleId: number, reports: readonly DurationReport[], rule: DurationRule): number | null {
    let m = this.runs.get(vehicleId);
    if (!m || reports[0].time <= m.time || m.key !== rule.key)
      this.runs.set(vehicleId, (m = { time: -Infinity, follow: rule.follow(), key: rule.key }));
    let since: number | null = null;
    for (const r of reports) {
      const fired = m.follow(r);
      if (fired !== null) since ??= fired;
      m.time = r.time;
    }
    return since;
  }
}
