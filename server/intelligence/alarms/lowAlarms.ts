/**
 * Low voltage raised as soon as the batch that completes it is committed, like the alarm word's
 * alarms, FireOn, Fault and fence crossings, instead of a derivation pass later: under load a pass
 * takes seconds (README, Benchmarks: Alarms). Low comes from two rules the pass merges into one
 * alarm: the terminal's under-voltage bit, and the OBD battery under the Low policy's threshold
 * for its minutes.
 *
 * Each vehicle's state of both is followed here, report by report; that is only a filter. When it
 * sees the bit come on, or a dip last the policy's minutes, the alarm is found again by the
 * deriver's own rules (alarmWordIntervals, lowVoltage, mergeIntervals) over the stored reports of a
 * stretch before the batch no longer than the pass's own look-back. It is stored only when neither
 * rule holds at the stretch's start (its first report lacks the bit, its first reading is at or
 * above the threshold): then nothing from before can reach into it, so the pass, which reads at
 * least that stretch, finds the same alarm (same key: begin), keeps its id and announces nothing
 * twice. (The one way it could differ: a dip whose readings all came before the stretch and that
 * no pass has derived yet, so a pass more than the stretch behind; the pass then replaces it.)
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { loadPositionsMany } from '../windowLoad';
import type { AlarmPolicy } from './policies';
import { storeFoundAheadOfPass, type FoundAhead, type LiveVehicle } from './aheadOfPass';
import { alarmWordIntervals, bitsOf } from './detectors/alarmWord';
import { MINUTE } from './detectors/motionRules';
import { lowVoltage, RULE_DEFAULTS, voltageOf } from './detectors/policyRules';
import { lookbackMs } from './deriver';
import { mergeIntervals } from './merge';
import type { RaisedAlarm } from './store';

/** A committed report, as this path needs it. */
export interface LowReport {
  vehicleId: number;
  /** Epoch ms. */
  time: number;
  alarm: number;
  /** The OBD battery reading, if the report carried one. */
  volts: number | null;
  blind: boolean;
}

/** The alarm word's bits that mean Low. */
const LOW_MASK = bitsOf('Low');

/** What is followed of a vehicle: its last report, whether the bit was on, and since when the battery has been low. */
interface LowState {
  time: number;
  bit: boolean | null;
  lowSince: number | null;
  /** The dip since `lowSince` has already been looked at. */
  dipSeen: boolean;
}

/** Vehicles remembered at most (beyond, the memory starts afresh: it only spares queries). */
const MAX_REMEMBERED = 200_000;

export class LowAlarms {
  private readonly states = new Map<number, LowState>();

  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the Low alarms these committed reports complete; answers those it created, with the organisation path. */
  async raise(vehicles: ReadonlyArray<LiveVehicle<LowReport>>): Promise<RaisedAlarm[]> {
    if (this.states.size > MAX_REMEMBERED) this.states.clear();
    const dipped: Array<{ vehicleId: number; path: string; policy: AlarmPolicy | undefined; volts: number; from: number; to: number }> = [];
    for (const { vehicleId, orgPath, policies, reports: list } of vehicles) {
      // Only vehicles whose reports can matter: the bit on, or a reading (a dip clears on one too).
      if (!list.some((r) => (r.alarm & LOW_MASK) !== 0 || r.volts !== null || this.states.get(r.vehicleId)?.bit)) continue;
      const policy = policies.get('Low');
      const volts = policy?.threshold ?? RULE_DEFAULTS.lowVolts;
      const minMs = (policy?.durationMinutes ?? RULE_DEFAULTS.lowMinutes) * MINUTE;
      if (!this.follow(vehicleId, list, policy ? { volts, minMs } : null)) continue;
      // The stretch the pass reads at least: its look-back, but no more than the dip needs.
      const before = Math.min(lookbackMs(policies), (policy ? minMs : 0) + MINUTE);
      dipped.push({ vehicleId, path: orgPath, policy, volts, from: list[0].time - before, to: list[list.length - 1].time + 1 });
    }
    if (!dipped.length) return [];
    const stretches = await loadPositionsMany(this.db, dipped);
    const stored: FoundAhead[] = [];
    for (const [i, { vehicleId, path, policy, volts }] of dipped.entries()) {
      const positions = stretches[i];
      // Neither rule may be holding at the stretch's start, or the pass may see the alarm begin
      // earlier: the first report without the bit, the first reading at or above the threshold.
      // (With no reading in the stretch, a dip long enough before it is already an open alarm,
      // which this one cannot be stored beside: one open alarm per key.)
      const firstReading = positions.find((p) => voltageOf(p) !== null);
      if (!positions.length || (positions[0].alarm & LOW_MASK) !== 0 || (policy && firstReading && voltageOf(firstReading)! < volts))
        continue;
      const found = mergeIntervals([...alarmWordIntervals(positions), ...(policy ? lowVoltage(positions, policy) : [])]).filter(
        (a) => a.type === 'Low',
      );
      if (found.length) stored.push({ vehicleId, orgPath: path, found });
    }
    return storeFoundAheadOfPass(this.db, stored);
  }

  /**
   * Follows the vehicle's bit and battery through these reports (newer than the last followed; an
   * older report makes the memory unsure, so it starts afresh); answers whether the bit came on or
   * a dip reached the policy's minutes in them.
   */
  private follow(vehicleId: number, reports: readonly LowReport[], rule: { volts: number; minMs: number } | null): boolean {
    let s = this.states.get(vehicleId);
    if (!s || reports[0].time <= s.time) this.states.set(vehicleId, (s = { time: -Infinity, bit: null, lowSince: null, dipSeen: false }));
    let seen = false;
    for (const r of reports) {
      const bit = (r.alarm & LOW_MASK) !== 0;
      if (bit && s.bit !== true) seen = true;
      s.bit = bit;
      if (rule && r.volts !== null) {
        if (r.volts >= rule.volts) {
          s.lowSince = null;
          s.dipSeen = false;
        } else {
          s.lowSince ??= r.time;
          if (!s.dipSeen && r.time - s.lowSince >= rule.minMs) {
            seen = true;
            s.dipSeen = true;
          }
        }
      }
      s.time = r.time;
    }
    return seen;
  }
}
