/**
 * Report-driven rules whose thresholds come from policies: FireOn, Low (OBD battery), Idle,
 * StopLongTime, OverSpeed, Trail and Fatigue. Each raises nothing without its policy.
 */

import type { DerivePosition } from '../../deriver';
import type { AlarmPolicy, PolicySet } from '../policies';
import type { AlarmInterval, AlarmType } from '../types';
import { HOUR, MINUTE } from './motionRules';
import * as motionRules from './motionRules';
import { conditionRuns, heldMs, type Run } from './runs';

/** Read once: under tsx an imported binding is a getter call on every use, and these run per report (trips/segment.ts). */
const { isMoving, metresBetween, MOVING_KMH, JITTER_M } = motionRules;

/** Defaults where a policy leaves a parameter empty. */
export const RULE_DEFAULTS = {
  /** Idle: ACC on and standing for this long. */
  idleMinutes: 5,
  stopMinutes: 24 * 60,
  overSpeedKmh: 100,
  /** Low: a dip must last this long (cranking the engine pulls the battery down for seconds). */
  lowMinutes: 1,
  lowVolts: 11.8,
  /** Trail: moved this far from where the ignition went off. */
  trailMetres: 300,
  fatigueHours: 4,
  fatigueRestMinutes: 20,
} as const;

const at = (p: DerivePosition) => ({ latitude: p.latitude, longitude: p.longitude });

function fromRun(type: AlarmType, r: Run, minMs: number, value: number | null, detail: Record<string, unknown> = {}): AlarmInterval | null {
  if (heldMs(r) < minMs) return null;
  const first = r.points[0];
  return {
    type,
    subject: '',
    begin: first.time,
    end: r.clearedBy?.time ?? null,
    firedAt: first.time + minMs,
    ...at(first),
    value,
    detail: { sources: ['policy'], ...detail },
  };
}

const minutesOf = (p: AlarmPolicy, fallback: number) => (p.durationMinutes ?? fallback) * MINUTE;
const heldMinutes = (r: Run) => Math.round(heldMs(r) / MINUTE);

/** Battery / supply voltage an OBD block carried, if any. */
export function voltageOf(p: Pick<DerivePosition, 'extras'>): number | null {
  const x = p.extras as { obd?: { powerV?: number }; obdF3?: { powerV?: number }; eb?: { batteryV?: number; powerV?: number } } | null;
  const v = x?.obd?.powerV ?? x?.obdF3?.powerV ?? x?.eb?.powerV ?? x?.eb?.batteryV;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function fireOn(positions: readonly DerivePosition[]): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  for (let i = 1; i < positions.length; i++) {
    const p = positions[i];
    if (p.acc && !positions[i - 1].acc)
      out.push({
        type: 'FireOn',
        subject: '',
        begin: p.time,
        end: p.time,
        firedAt: p.time,
        ...at(p),
        value: null,
        detail: { sources: ['policy'] },
      });
  }
  return out;
}

/** A report as the idling, stopping and speeding conditions read it. */
export type MotionFix = Pick<DerivePosition, 'time' | 'latitude' | 'longitude' | 'speed' | 'acc'>;

/** Standing still: slower than walking pace and within GNSS jitter of where it stopped. */
export const standing = (p: MotionFix, first: MotionFix | null) => !isMoving(p) && (!first || metresBetween(first, p) <= JITTER_M);

/** How long a stop must last under the StopLongTime policy. */
export const stopMs = (policy: AlarmPolicy): number => minutesOf(policy, RULE_DEFAULTS.stopMinutes);

/** Idle's condition and duration under its policy: ACC on, slow, and within jitter of where the run began. */
export function idleRule(policy: AlarmPolicy): { holds: (p: MotionFix, first: MotionFix | null) => boolean; minMs: number } {
  const maxKmh = policy.params.maxSpeedKmh;
  const slow = (p: MotionFix) => (maxKmh !== undefined ? p.speed <= maxKmh : p.speed < MOVING_KMH);
  return {
    holds: (p, first) => p.acc && slow(p) && (!first || metresBetween(first, p) <= JITTER_M),
    minMs: minutesOf(policy, RULE_DEFAULTS.idleMinutes),
  };
}

export function idle(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const { holds, minMs } = idleRule(policy);
  return conditionRuns(positions, holds)
    .map((r) => fromRun('Idle', r, minMs, heldMinutes(r)))
    .filter((x): x is AlarmInterval => x !== null);
}

/**
 * A stop lasts until the vehicle moves: a parked terminal that went quiet stood still until its
 * next (moving) report, so the stop is measured to that report, not to its last standing one.
 */
export function stopLongTime(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const min = stopMs(policy);
  const out: AlarmInterval[] = [];
  for (const r of conditionRuns(positions, standing)) {
    const first = r.points[0];
    const stood = (r.clearedBy ?? r.points[r.points.length - 1]).time - first.time;
    if (stood < min) continue;
    out.push({
      type: 'StopLongTime',
      subject: '',
      begin: first.time,
      end: r.clearedBy?.time ?? null,
      firedAt: first.time + min,
      ...at(first),
      value: Math.round(stood / MINUTE),
      detail: { sources: ['policy'] },
    });
  }
  return out;
}

/** OverSpeed's limit (km/h) and how long it must be exceeded under its policy. */
export function overSpeedRule(policy: AlarmPolicy): { limitKmh: number; minMs: number } {
  // durationSeconds refines durationMinutes: they add up.
  return {
    limitKmh: policy.threshold ?? RULE_DEFAULTS.overSpeedKmh,
    minMs: minutesOf(policy, 0) + (policy.params.durationSeconds ?? 0) * 1000,
  };
}

export function overSpeed(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const { limitKmh, minMs } = overSpeedRule(policy);
  return conditionRuns(positions, (p) => p.speed > limitKmh)
    .map((r) => fromRun('OverSpeed', r, minMs, Math.max(...r.points.map((p) => p.speed)), { limitKmh }))
    .filter((x): x is AlarmInterval => x !== null);
}

/** Low voltage from the OBD battery reading; reports without a reading neither hold nor clear it. */
export function lowVoltage(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const volts = policy.threshold ?? RULE_DEFAULTS.lowVolts;
  const min = minutesOf(policy, RULE_DEFAULTS.lowMinutes);
  const readings = positions.filter((p) => voltageOf(p) !== null);
  return conditionRuns(readings, (p) => voltageOf(p)! < volts)
    .map((r) => fromRun('Low', r, min, Math.min(...r.points.map((p) => voltageOf(p)!)), { thresholdV: volts }))
    .filter((x): x is AlarmInterval => x !== null);
}

/** Trail's distance (metres) from where the ignition went off, under its policy. */
export const trailMetres = (policy: AlarmPolicy): number => policy.threshold ?? RULE_DEFAULTS.trailMetres;

/**
 * Towing: with the ignition off, the vehicle ends up more than the threshold (metres, default
 * 300) from where the ignition went off. It ends when the ignition comes on or the vehicle has
 * stood still for 5 minutes.
 */
export function trail(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const metres = trailMetres(policy);
  const out: AlarmInterval[] = [];
  let anchor: DerivePosition | null = null;
  let cur: AlarmInterval | null = null;
  let lastMove = 0;
  let restAnchor: DerivePosition | null = null;
  for (const p of positions) {
    if (p.acc) {
      if (cur) {
        cur.end = p.time;
        out.push(cur);
        cur = null;
      }
      anchor = null;
      continue;
    }
    if (!anchor) {
      anchor = p;
      continue;
    }
    const away = metresBetween(anchor, p);
    if (!cur) {
      if (away > metres) {
        cur = {
          type: 'Trail',
          subject: '',
          begin: p.time,
          end: null,
          firedAt: p.time,
          ...at(p),
          value: Math.round(away),
          detail: { sources: ['policy'], thresholdM: metres },
        };
        lastMove = p.time;
        restAnchor = p;
      }
      continue;
    }
    cur.value = Math.max(cur.value ?? 0, Math.round(away));
    if (isMoving(p) || metresBetween(restAnchor!, p) > JITTER_M) {
      lastMove = p.time;
      restAnchor = p;
    } else if (p.time - lastMove >= 5 * MINUTE) {
      cur.end = lastMove;
      out.push(cur);
      cur = null;
      anchor = p;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Fatigue's limit of driving and the rest that ends it, under its policy. */
export function fatigueRule(policy: AlarmPolicy): { limitMs: number; restMs: number } {
  return {
    limitMs: (policy.params.hours ?? RULE_DEFAULTS.fatigueHours) * HOUR,
    restMs: (policy.params.restMinutes ?? RULE_DEFAULTS.fatigueRestMinutes) * MINUTE,
  };
}

/**
 * Where fatigue stands, report by report: driving since when (short stops included), resting since
 * when. What fatigue() steps through.
 */
export class FatigueRun<P extends MotionFix = MotionFix> {
  driveStart: P | null = null;
  private restStart: number | null = null;
  /** The rest under way has been long enough (and said so). */
  private rested = false;

  constructor(private readonly rule: { limitMs: number; restMs: number }) {}

  /**
   * Steps one report. Answers when a rest long enough to end the driving so far is first seen
   * complete at this report (a terminal that went quiet while parked rested until its next
   * report): the time the rest became long enough; else null.
   */
  step(p: P): number | null {
    const { restMs } = this.rule;
    const rest = this.restStart;
    if (p.speed >= MOVING_KMH) {
      const seen = this.rested;
      const long = rest !== null && p.time - rest >= restMs;
      this.restStart = null;
      this.rested = false;
      if (long) this.driveStart = null;
      this.driveStart ??= p;
      return long && !seen ? rest + restMs : null;
    }
    const since = rest ?? (this.restStart = p.time);
    if (this.rested || p.time - since < restMs) return null;
    this.rested = true;
    this.driveStart = null;
    return since + restMs;
  }

  /** Driving (at a moving report `p`) for the limit without the rest. */
  tired(p: P): boolean {
    return this.driveStart !== null && p.speed >= MOVING_KMH && p.time - this.driveStart.time >= this.rule.limitMs;
  }
}

/**
 * Fatigue: driving for the policy's hours (default 4) without a rest of its minutes (default 20).
 * Begins when that driving began; clears once a long enough rest has been taken (when the terminal
 * was quiet through it, at the report after).
 */
export function fatigue(positions: readonly DerivePosition[], policy: AlarmPolicy): AlarmInterval[] {
  const rule = fatigueRule(policy);
  const run = new FatigueRun<DerivePosition>(rule);
  const out: AlarmInterval[] = [];
  let cur: AlarmInterval | null = null;
  for (const p of positions) {
    const rested = run.step(p);
    if (rested !== null && cur) {
      cur.end = rested;
      out.push(cur);
      cur = null;
    }
    if (!cur && run.tired(p)) {
      const start = run.driveStart!;
      cur = {
        type: 'Fatigue',
        subject: '',
        begin: start.time,
        end: null,
        firedAt: start.time + rule.limitMs,
        ...at(start),
        value: null,
        detail: { sources: ['policy'] },
      };
    }
    if (cur && p.speed >= MOVING_KMH) cur.value = Math.round((p.time - run.driveStart!.time) / MINUTE);
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * The first report of these at which a rest of the policy's minutes is complete: from there on,
 * fatigue() finds the same whatever came before them (null: no such report).
 */
export function fatigueSettled(positions: readonly DerivePosition[], policy: AlarmPolicy): number | null {
  // A rest that began before these reports began earlier still: whatever drove before it, it ends
  // that driving here too.
  const run = new FatigueRun<DerivePosition>(fatigueRule(policy));
  for (const p of positions) if (run.step(p) !== null) return p.time;
  return null;
}

/**
 * Every policy rule the vehicle's policies switch on. `prefixes`: per type, reports to read before
 * these (a carried run's first report and the one before these: carry.ts), so a run open before
 * them goes on from its first report.
 */
export function policyIntervals(
  positions: readonly DerivePosition[],
  policies: PolicySet,
  prefixes: ReadonlyMap<AlarmType, readonly DerivePosition[]> = new Map(),
): AlarmInterval[] {
  const out: AlarmInterval[] = [];
  const p = (t: AlarmType) => policies.get(t);
  const fireOnFrom = prefixes.get('FireOn');
  if (p('FireOn')) out.push(...fireOn(fireOnFrom ? [...fireOnFrom, ...positions] : positions));
  const rules: Array<[AlarmType, (ps: readonly DerivePosition[], policy: AlarmPolicy) => AlarmInterval[]]> = [
    ['Idle', idle],
    ['StopLongTime', stopLongTime],
    ['OverSpeed', overSpeed],
    ['Low', lowVoltage],
    ['Trail', trail],
    ['Fatigue', fatigue],
  ];
  for (const [type, rule] of rules) {
    const policy = p(type);
    const prefix = prefixes.get(type);
    if (policy) out.push(...rule(prefix ? [...prefix, ...positions] : positions, policy));
  }
  return out;
}
