/**
 * The alarm engine on the real stack: gateway over TCP, position and OBD writers, the derivation
 * pipeline with the alarm deriver, the offline clock on a clock the test moves, and the app.
 */

import { sql } from 'kysely';
import { startDerivation, type Derivation, type Deriver } from '../../../../server/intelligence';
import { createAlarmEngine, type AlarmEngine } from '../../../../server/intelligence/alarms/engine';
import { notifyDispatcher, type NotifyDispatcher } from '../../../../server/notify/dispatcher';
import type { RaisedAlarm } from '../../../../server/intelligence/alarms/store';
import type { SmtpConfig } from '../../../../server/notify/smtp';
import type { TargetAllow } from '../../../../server/notify/target';
import { createBus } from '../../../../server/platform/bus';
import type { AlarmRaised } from '../../../../server/platform/telemetry';
import type { LocationInput, ObdRecordInput } from '../../../../server/telematics/jt808/codec';
import type { AlarmType } from '../../../../server/intelligence/alarms/types';
import type { Backend } from '../../../helpers/testServer';
import { startGateway, until, type GatewayHarness } from '../../telematics/gateway/harness';

export interface AlarmRig extends GatewayHarness {
  engine: AlarmEngine;
  /** Delivery of new alarms by the notification rules (fast retries: 3 attempts, 50 ms backoff). */
  notifier: NotifyDispatcher;
  derivation: Derivation;
  /** Every alarm the engine announced, in order. */
  raised: RaisedAlarm[];
  /** Every `alarm.raised` the bus carried, in order. */
  published: AlarmRaised[];
  /** Milliseconds the offline clock is ahead of the real one. */
  clockAhead: number;
  /** Sends reports as one terminal (live, one message each) and waits until all are derived. */
  send(phone: string, reports: LocationInput[], opts?: { blind?: boolean; chunk?: number }): Promise<void>;
  /** Sends reports one at a time, each derived before the next: the positions each pass was handed. */
  sendLive(phone: string, reports: readonly LocationInput[]): Promise<number[]>;
  /** Sends OBD records (0x0900) as one terminal and waits until all are derived. */
  sendObd(phone: string, records: ObdRecordInput[]): Promise<void>;
  /** Waits until the pipeline has nothing pending. */
  settled(): Promise<void>;
  vehicleOf(phone: string): Promise<number>;
}

/**
 * `extraDerivers` run after the alarm deriver (the behaviour deriver reads its alarms),
 * `beforeAlarms` between the pipeline's own derivers and it: after the pass has read its windows.
 */
/** `webhookAllow`: the non-public webhook targets the app and the notifier allow (WEBHOOK_ALLOW). */
export async function startAlarmRig(
  backend: Backend,
  opts: {
    extraDerivers?: Deriver[];
    beforeAlarms?: Deriver[];
    smtp?: SmtpConfig;
    obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
    webhookAllow?: TargetAllow;
  } = {},
): Promise<AlarmRig> {
  const h = await startGateway(backend, { routes: { commandTimeoutMs: 1000 }, app: { webhookAllow: opts.webhookAllow } });
  const db = h.s.database.db;
  const raised: RaisedAlarm[] = [];
  const rig = { clockAhead: 0 } as { clockAhead: number };
  // As bootstrap wires them: the engine publishes on the bus, the notifier subscribes.
  const bus = createBus();
  const published: AlarmRaised[] = [];
  const engine = createAlarmEngine({
    db,
    bus,
    obdAlarmTypes: opts.obdAlarmTypes,
    now: () => Date.now() + rig.clockAhead,
    intervalMs: 100,
    onRaised: (a) => raised.push(...a),
  });
  const notifier = notifyDispatcher({
    db,
    sink: h.hub!,
    timeZone: 'Asia/Shanghai',
    now: () => Date.now() + rig.clockAhead,
    attempts: 3,
    backoffMs: 50,
    timeoutMs: 2000,
    smtp: opts.smtp,
    allow: opts.webhookAllow,
  });
  bus.subscribe('alarm.raised', (a) => {
    published.push(a);
    notifier.onRaised([{ id: a.alarmId }]);
  });
  const derivation = await startDerivation({
    db,
    timeZone: 'Asia/Shanghai',
    sources: [h.gateway.writer, h.gateway.obdWriter],
    extraDerivers: [...(opts.beforeAlarms ?? []), engine.deriver, ...(opts.extraDerivers ?? [])],
    lingerMs: 20,
  });
  engine.start();
  const settled = async () => {
    await h.gateway.writer.flush();
    await derivation.pipeline.idle();
    // An upper bound for a loaded machine (the suite's other workers, servers and browsers): the wait ends when the marks do.
    await until(async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM derive_mark`.execute(db)).rows[0].n === 0, 120_000);
  };
  const terminals = new Map<string, ReturnType<GatewayHarness['terminal']>>();
  const terminalOf = async (phone: string) => {
    let t = terminals.get(phone);
    if (!t) {
      t = h.terminal(phone);
      await t.connect();
      terminals.set(phone, t);
    }
    return t;
  };
  const sendObd: AlarmRig['sendObd'] = async (phone, records) => {
    const t = await terminalOf(phone);
    for (const r of records) t.reportObd(r);
    await t.drain(60_000);
    await h.gateway.obdWriter.flush();
    await settled();
  };
  const send: AlarmRig['send'] = async (phone, reports, opts = {}) => {
    const t = await terminalOf(phone);
    if (opts.blind) {
      const chunk = opts.chunk ?? 10;
      for (let i = 0; i < reports.length; i += chunk) t.reportBatch(reports.slice(i, i + chunk), true);
    } else for (const r of reports) t.report(r);
    await t.drain(60_000);
    await settled();
  };
  const sendLive: AlarmRig['sendLive'] = async (phone, reports) => {
    const handed: number[] = [];
    for (const r of reports) {
      const before = (await derivation.stats()).positionsDerived;
      await send(phone, [r]);
      handed.push((await derivation.stats()).positionsDerived - before);
    }
    return handed;
  };
  const vehicleOf = async (phone: string) =>
    (
      await sql<{ id: number }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(
        db,
      )
    ).rows[0].id;
  return Object.assign(rig, {
    ...h,
    engine,
    notifier,
    derivation,
    raised,
    published,
    send,
    sendLive,
    sendObd,
    settled,
    vehicleOf,
    async close() {
      await notifier.stop();
      await engine.stop();
      await derivation.close();
      await h.close();
    },
  });
}
