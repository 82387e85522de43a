/**
 * The alarm engine of one server process: the deriver the derivation pipeline runs for every
 * window, and the clock for the types no report raises in time. Each new alarm is announced once:
 * published on the bus's `alarm.raised` (notifications and any other subscriber, in this process
 * or, behind a durable bus, elsewhere) and handed to the in-process listener.
 */

import type { Kysely } from 'kysely';
import type { ServerBus } from '../../platform/bus';
import type { DB } from '../../platform/db/tables';
import { OBD_DTC_SUBTYPE, type Deriver } from '../deriver';
import { AlarmClock, type AlarmClockOptions } from './clock';
import { alarmDeriver } from './deriver';
import type { RaisedAlarm } from './store';
import type { AlarmType } from './types';
import { raiseBitAlarms, raisePolicyFreeBitAlarms, type BitReport } from './bitAlarms';
import { IgnitionAlarms, type IgnitionReport } from './ignitionAlarms';
import { FaultAlarms, type FaultReport } from './faultAlarms';
import { FenceAlarms } from './fenceAlarms';
import { LowAlarms, type LowReport } from './lowAlarms';
import { DurationAlarms, type DurationReport } from './durationAlarms';
import { FuelDrainAlarms, type FuelReport } from './fuelDrainAlarms';
import { voltageOf } from './detectors/policyRules';
import { OBD_ALARM_SUBTYPE, positionDtcs } from './detectors/obd';
import { raiseObdRecordAlarms, type ObdAlarmReport } from './obdRecordAlarms';
import { orgPathsOf } from './policies';
import { liveVehicles } from './aheadOfPass';
import type { StoredBatch, StoredSource } from '../subscription';
import { SettingsCache } from '../settingsCache';
import type { ObdRecordRow, PositionRecord } from '../../platform/telemetry';

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
  /**
   * Raises the alarm word's own alarms (and its Fatigue, StopLongTime, FuelDrain and Trail where no
   * policy of the type is in force), FireOn, Fault, the OBD alarm records' alarms, fence
   * crossings, Low, OverSpeed, Idle, Fatigue, Trail, StopLongTime, Skewing, RepeatArrival and FuelDrain from each batch these writers
   * commit, ahead of the derivation pass (bitAlarms.ts, ignitionAlarms.ts, faultAlarms.ts,
   * obdRecordAlarms.ts, fenceAlarms.ts, lowAlarms.ts, durationAlarms.ts, fuelDrainAlarms.ts); returns the unsubscribe function.
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
    for (const a of alarms)
      opts.bus?.publish('alarm.raised', { alarmId: a.id, vehicleId: a.vehicleId, orgPath: a.orgPath, type: a.type, at: a.begin });
  };
  const inFlight = new Set<Promise<void>>();
  const announce = (alarms: RaisedAlarm[]) => {
    if (alarms.length) onRaised(alarms);
  };
  const ignition = new IgnitionAlarms(opts.db);
  const faults = new FaultAlarms(opts.db);
  const crossings = new FenceAlarms(opts.db);
  const lows = new LowAlarms(opts.db);
  const durations = (['OverSpeed', 'Idle', 'Fatigue', 'Trail', 'StopLongTime', 'Skewing', 'RepeatArrival'] as const).map(
    (type) => new DurationAlarms(opts.db, type),
  );
  const draining = new FuelDrainAlarms(opts.db);
  // The policies and fences in force, read again when one changes (the derivation's cache).
  const settings = new SettingsCache();
  const onStored = (batch: StoredBatch) => {
    const reports: BitReport[] = [];
    // What the ignition, fence, Low, duration and drain paths read of each position: one list for all.
    const positions: Array<IgnitionReport & LowReport & DurationReport & FuelReport> = [];
    const dtcs: FaultReport[] = [];
    const obdAlarms: ObdAlarmReport[] = [];
    for (const { record } of batch.inserted) {
      if (record.vehicleId === null) continue;
      // Both writers' batches come through the same sources: OBD records carry a subtype.
      if ('subtype' in record) {
        const o = record as ObdRecordRow;
        if (o.subtype === OBD_DTC_SUBTYPE && !o.archive)
          dtcs.push({ vehicleId: record.vehicleId, time: o.deviceTime, codes: o.dtcs.map((d) => d.text) });
        if (o.subtype === OBD_ALARM_SUBTYPE && !o.archive)
          obdAlarms.push({
            vehicleId: record.vehicleId,
            record: {
              time: o.deviceTime,
              subtype: o.subtype,
              latitude: o.latitude,
              longitude: o.longitude,
              readings: null,
              detail: o.detail,
              dtcCount: 0,
            },
          });
        continue;
      }
      const r = record as PositionRecord & { vehicleId: number };
      if (typeof r.acc !== 'boolean') continue;
      const at = { vehicleId: r.vehicleId, time: r.deviceTime, latitude: r.latitude ?? 0, longitude: r.longitude ?? 0 };
      positions.push({
        ...at,
        acc: r.acc,
        speed: r.speed ?? 0,
        blind: r.blind === true,
        alarm: typeof r.alarm === 'number' ? r.alarm >>> 0 : 0,
        volts: voltageOf(r),
        fuelL: typeof r.fuelL === 'number' ? r.fuelL : null,
      });
      if (typeof r.alarm === 'number' && r.alarm !== 0 && !r.blind) reports.push({ ...at, alarm: r.alarm });
      const codes = r.blind ? null : positionDtcs(r);
      if (codes) dtcs.push({ vehicleId: r.vehicleId, time: r.deviceTime, codes });
    }
    if (!positions.length && !dtcs.length && !obdAlarms.length) return;
    const p = (async () => {
      // Each vehicle's organisation and the settings in force, once for every path of the batch,
      // read while the alarm word's alarms (which need neither to be stored) are stored.
      const context = Promise.all([
        orgPathsOf(opts.db, [...new Set([...positions, ...dtcs, ...obdAlarms].map((r) => r.vehicleId))]),
        settings.forPass(opts.db),
      ]);
      // Awaited below; until then a failure must not count as unhandled (it is logged from there).
      context.catch(() => {});
      const created = reports.length ? await raiseBitAlarms(opts.db, reports) : [];
      const [pathOf, lookups] = await context;
      if (created.length) onRaised(created.map((a) => ({ ...a, orgPath: pathOf.get(a.vehicleId) ?? '/' })));
      // Each vehicle's live reports in order and its policies, once for every path that follows vehicles.
      const live = liveVehicles(positions, lookups, pathOf).then((vehicles) =>
        vehicles.length
          ? Promise.all(
              [
                crossings.raise(vehicles, lookups),
                lows.raise(vehicles),
                draining.raise(vehicles),
                ...durations.map((d) => d.raise(vehicles, lookups)),
              ].map((r) => r.then(announce)),
            )
          : null,
      );
      // Independent of each other (each stores its own types), so side by side.
      await Promise.all([
        reports.length ? raisePolicyFreeBitAlarms(opts.db, reports, lookups, pathOf).then(announce) : null,
        positions.length ? ignition.raise(positions, lookups, pathOf).then(announce) : null,
        dtcs.length ? faults.raise(dtcs, lookups, pathOf).then(announce) : null,
        obdAlarms.length ? raiseObdRecordAlarms(opts.db, obdAlarms, pathOf, opts.obdAlarmTypes).then(announce) : null,
        live,
      ]);
    })().catch((err: unknown) => opts.log?.warn({ err }, 'alarms from a committed batch failed'));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const clock = new AlarmClock(opts.db, { now: opts.now, intervalMs: opts.intervalMs, log: opts.log, onRaised });
  return {
    deriver: alarmDeriver({ onRaised, obdAlarmTypes: opts.obdAlarmTypes }),
    clock,
    announce,
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
