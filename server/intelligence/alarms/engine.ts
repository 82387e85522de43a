/**
 * The alarm engine of one server process: the deriver the derivation pipeline runs for every
 * window, and the clock for the types no report raises in time. Each new alarm is announced once:
 * published on the bus's `alarm.raised` (notifications and any other subscriber, in this process
 * or, behind a durable bus, elsewhere) and handed to the in-process listener.
 */

import type { Kysely } from 'kysely';
import type { ServerBus } from '../../platform/bus';
import type { DB } from '../../platform/db/tables';
import type { Deriver } from '../deriver';
import { AlarmClock, type AlarmClockOptions } from './clock';
import { alarmDeriver } from './deriver';
import type { RaisedAlarm } from './store';
import type { AlarmType } from './types';
import { raiseBitAlarms, type BitReport } from './bitAlarms';
import { IgnitionAlarms, type IgnitionReport } from './ignitionAlarms';
import { orgPathsOf } from './policies';
import type { StoredSource } from '../subscription';
import type { PositionRecord } from '../../platform/telemetry';

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
  /** Where new alarms go from now on, besides the bus. */
  setListener(listener: (alarms: RaisedAlarm[]) => void): void;
  /**
   * Raises the alarm word's own alarms and FireOn from each batch these writers commit, ahead of
   * the derivation pass (bitAlarms.ts, ignitionAlarms.ts); returns the unsubscribe function.
   */
  watch(sources: StoredSource[]): () => void;
  /** Resolves once the batches heard so far have been looked at (tests). */
  watched(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createAlarmEngine(opts: AlarmEngineOptions): AlarmEngine {
  let listener = opts.onRaised;
  const onRaised = (alarms: RaisedAlarm[]) => {
    listener?.(alarms);
    for (const a of alarms) opts.bus?.publish('alarm.raised', { alarmId: a.id, vehicleId: a.vehicleId, orgPath: a.orgPath, type: a.type, at: a.begin });
  };
  const inFlight = new Set<Promise<void>>();
  const ignition = new IgnitionAlarms(opts.db);
  const onStored = (batch: Parameters<Parameters<StoredSource['on']>[1]>[0]) => {
    const reports: BitReport[] = [];
    const positions: IgnitionReport[] = [];
    for (const { record } of batch.inserted) {
      // OBD record batches come through the same sources: only positions carry ACC and an alarm word.
      const r = record as Partial<PositionRecord> & { vehicleId: number | null; deviceTime: number };
      if (r.vehicleId === null || typeof r.acc !== 'boolean') continue;
      const at = { vehicleId: r.vehicleId, time: r.deviceTime, latitude: r.latitude ?? 0, longitude: r.longitude ?? 0 };
      positions.push({ ...at, acc: r.acc, blind: r.blind === true });
      if (typeof r.alarm === 'number' && r.alarm !== 0 && !r.blind) reports.push({ ...at, alarm: r.alarm });
    }
    if (!positions.length) return;
    const p = (async () => {
      const created = reports.length ? await raiseBitAlarms(opts.db, reports) : [];
      if (created.length) {
        const pathOf = await orgPathsOf(opts.db, created.map((a) => a.vehicleId));
        onRaised(created.map((a) => ({ ...a, orgPath: pathOf.get(a.vehicleId) ?? '/' })));
      }
      const fired = await ignition.raise(positions);
      if (fired.length) onRaised(fired);
    })().catch((err: unknown) => opts.log?.warn({ err }, 'alarms from a committed batch failed'));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const clock = new AlarmClock(opts.db, { now: opts.now, intervalMs: opts.intervalMs, log: opts.log, onRaised });
  return {
    deriver: alarmDeriver({ onRaised, obdAlarmTypes: opts.obdAlarmTypes }),
    clock,
    setListener: (l) => (listener = l),
    watch(sources) {
      for (const s of sources) s.on('stored', onStored);
      return () => {
        for (const s of sources) s.off('stored', onStored);
      };
    },
    async watched() {
      await Promise.allSettled([...inFlight]);
    },
    start: () => clock.start(),
    stop: () => clock.stop(),
  };
}
