/**
 * The alarm engine of one server process: the deriver the derivation pipeline runs for every
 * window, and the clock for the types no report raises in time. Every report-driven alarm comes
 * from the pass alone (each rule written once, in detectors/); latency comes from the pass being
 * short, not from a second path beside it. Each new alarm is announced once: published on the
 * bus's `alarm.raised` (notifications and any other subscriber, in this process or, behind a
 * durable bus, elsewhere) and handed to the in-process listener.
 */

import type { Kysely } from 'kysely';
import type { ServerBus } from '../../platform/bus';
import type { DB } from '../../platform/db/tables';
import type { Deriver } from '../deriver';
import { engineClock, type AlarmClock, type AlarmClockOptions } from './clock';
import { alarmDeriver } from './deriver';
import type { RaisedAlarm } from './store';
import type { AlarmType } from './types';

export interface AlarmEngineOptions extends Pick<AlarmClockOptions, 'now' | 'intervalMs' | 'log'> {
  db: Kysely<DB>;
  /** Where `alarm.raised` is published. */
  bus?: ServerBus;
  onRaised?: (alarms: RaisedAlarm[]) => void;
  /** OBD alarm item ids mapped to alarm types (OBD_ALARM_TYPES). */
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
}

export interface AlarmEngine {
  deriver: Deriver;
  clock: AlarmClock;
  /** Announces alarms raised elsewhere (the derivation thread's passes) as the engine's own. */
  announce(alarms: RaisedAlarm[]): void;
  /** Where new alarms go from now on, besides the bus. */
  setListener(listener: (alarms: RaisedAlarm[]) => void): void;
  start(): void;
  stop(): Promise<void>;
}

export function createAlarmEngine(opts: AlarmEngineOptions): AlarmEngine {
  let listener = opts.onRaised;
  const announce = (alarms: RaisedAlarm[]) => {
    if (!alarms.length) return;
    listener?.(alarms);
    for (const a of alarms)
      opts.bus?.publish('alarm.raised', { alarmId: a.id, vehicleId: a.vehicleId, orgPath: a.orgPath, type: a.type, at: a.begin });
  };
  const clock = engineClock(opts.db, { now: opts.now, intervalMs: opts.intervalMs, log: opts.log, onRaised: announce });
  return {
    deriver: alarmDeriver({ onRaised: announce, obdAlarmTypes: opts.obdAlarmTypes }),
    clock,
    announce,
    setListener: (l) => (listener = l),
    start: () => clock.start(),
    stop: () => clock.stop(),
  };
}
