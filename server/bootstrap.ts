/**
 * The one start-up sequence of the server, for `npm start`, the Umi mock, the tests and the
 * benches: open the database → migrate → seed → token secret → app → partition maintenance →
 * derivation (pipeline and alarm engine) → telematics; `close()` undoes them in reverse order. What differs between them is passed in:
 * the seed, the secret, the app's options, and whether telematics runs and with which fleet.
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp, type AppOptions } from './app';
import { tokenSecret } from './platform/auth/secret';
import type { NatsConnection } from '@nats-io/transport-node';
import { startSubscriptions } from './subscriptions';
import { startForwarding, type ForwardingService } from './forwarding';
import { createBus, sharedView, type ServerBus, type ServerTopics } from './platform/bus';
import type { ClosedTrip } from './platform/telemetry';
import { createNatsBus } from './platform/natsBus';
import { reportMisassignedRoles } from './passport/roleScope';
import { openDatabase, type Database, type DatabaseOptions } from './platform/db/database';
import { migrate } from './platform/db/migrate';
import type { DB } from './platform/db/tables';
import { busSources, startDerivation, type DerivationHandle } from './intelligence';
import { engineDerivers } from './intelligence/engine';
import { startDerivationThread } from './intelligence/thread/derivationThread';
import { createAlarmEngine, type AlarmEngine } from './intelligence/alarms/engine';
import { MaintenanceClock } from './maintenance/maintenanceClock';
import { notifyDispatcher, type RaisedAlarmSink } from './notify/dispatcher';
import type { SmtpConfig } from './notify/smtp';
import type { AlarmType } from './intelligence/alarms/types';
import { startTelematics, type FleetStarter, type Telematics, type TelematicsOptions } from './telematics';
import { startPartitionMaintenance, type PartitionMaintenance } from './telematics/store/partitions';
import { createServerMetrics, type ServerMetrics } from './platform/metrics/serverMetrics';
import { watchDatabase, watchDerivation, watchGateway } from './platform/metrics/sources';

export interface BootstrapOptions {
  database: DatabaseOptions;
  /** Seeds the migrated database (server/seed, passed in so nothing below imports it). */
  seed?: (db: Kysely<DB>) => Promise<{ seeded: boolean }>;
  /** JWT_SECRET; absent, the secret kept in the database (generated on first start). */
  jwtSecret?: string;
  /** The app's options besides the database and the secret. */
  app?: Omit<AppOptions, 'database' | 'secret'>;
  /** Month partitions of the time series kept ahead and pruned (`npm start`); absent, not maintained. */
  partitions?: { retentionMonths: number | null };
  /**
   * The derivation pipeline (trips, stops, fuel events, the daily ledger) with the alarm engine's
   * deriver and clock, then the behaviour deriver (driving events, health index; it reads the alarms), fed by the bus's committed batches; absent, nothing is derived.
   */
  derivation?: {
    timeZone: string;
    smtp?: SmtpConfig | null;
    obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
    /**
     * Run the alarm clock here (default true). With GATEWAY_WORKERS, only the first worker does: each
     * tick reads every terminal, and N workers ticking did the same work N times.
     */
    clock?: boolean;
    /** Derive on a thread of its own (thread/derivationThread.ts); needs a PostgreSQL `databaseUrl`. */
    thread?: boolean;
  };
  /**
   * NATS_URL: the bus is JetStream (every process sees what every gateway stored; derivation takes
   * each batch once across processes) and commands go down through whichever process holds the
   * terminal. Absent: the in-process bus, nothing else needed.
   */
  nats?: { url: string };
  /**
   * Runs the forwarding links of `forward_link` here (docs/forwarding.md): the raw JT/T 808 links in
   * every gateway process (each forwards its own terminals' frames), the JT/T 809 links in one
   * (`jt809`: with several gateway workers, the first; the bus brings it the others' positions).
   */
  forwarding?: { jt809: boolean };
  /** Starts the JT/T 808 gateway and its routes; absent, no telematics (its routes are not registered). */
  telematics?: {
    config: TelematicsOptions['config'];
    fleet?: FleetStarter;
  };
}

export interface Server {
  database: Database;
  app: FastifyInstance;
  /** The bus features publish and subscribe on (in-process, or NATS JetStream with NATS_URL). */
  bus: ServerBus;
  secret: string;
  telematics: Telematics | null;
  derivation: DerivationHandle | null;
  /** The maintenance schedules' clock (with derivation): its alarms are announced as the engine's. */
  maintenance: MaintenanceClock | null;
  /** The forwarding links (with `forwarding`): their state, backlog and counters. */
  forwarding: ForwardingService | null;
  /** The series GET /metrics shows for this process. */
  metrics: ServerMetrics;
  /** Closes what was started, in reverse order. */
  close(): Promise<void>;
}

export async function bootstrap(opts: BootstrapOptions): Promise<Server> {
  // Each step pushes its undo; a failure half-way closes what was opened before rethrowing.
  const undo: Array<() => Promise<unknown>> = [];
  const close = async () => {
    while (undo.length) await undo.pop()!();
  };
  try {
    const database = await openDatabase(opts.database);
    undo.push(() => database.close());
    const applied = await migrate(database);
    const seeded = (await opts.seed?.(database.db)) ?? { seeded: false };
    const secret = await tokenSecret(database.db, opts.jwtSecret);
    // The bus comes after the app (its errors go to the app's log); sessions ended before it exists have no sockets to close.
    let sessionBus: ServerBus | undefined;
    const metrics = createServerMetrics();
    watchDatabase(metrics, database);
    // Started further down; the routes read it when asked.
    let forwarding: ForwardingService | null = null;
    const app = await buildApp({
      ...opts.app,
      smtp: opts.app?.smtp ?? opts.derivation?.smtp,
      metrics,
      database,
      secret,
      sessionsChanged: (reason) => sessionBus?.publish('sessions.changed', { reason }),
      forwardingLinks: () => forwarding?.links() ?? null,
      forwardLinksChanged: (linkId) => sessionBus?.publish('forwarding.changed', { linkId }),
    });
    undo.push(() => app.close());
    app.log.info({ migrations: applied.length, database: database.kind, seeded: seeded.seeded }, 'database ready');
    // Role assignments made before the organisation rule was enforced: one warning, the list is on the accounts page.
    await reportMisassignedRoles(database.db, app.log);
    const onBusError = (err: unknown, topic: PropertyKey) => app.log.error({ err, topic }, 'bus subscriber failed');
    let bus: ServerBus;
    let nats: NatsConnection | undefined;
    if (opts.nats) {
      const natsBus = await createNatsBus<ServerTopics>({ url: opts.nats.url, onError: onBusError });
      undo.push(() => natsBus.close());
      bus = natsBus;
      nats = natsBus.connection;
      app.log.info({ url: opts.nats.url }, 'bus on NATS JetStream');
    } else bus = createBus(onBusError);
    sessionBus = bus;
    let partitions: PartitionMaintenance | null = null;
    if (opts.partitions) {
      // This month's and the next months' partitions exist before the gateway stores anything.
      partitions = startPartitionMaintenance(database.db, { retentionMonths: opts.partitions.retentionMonths, log: app.log });
      undo.push(() => partitions!.stop());
      await partitions.ready;
    }
    // Subscribers of the bus (the derivation pipeline) start here, before telematics publishes anything.
    let derivation: DerivationHandle | null = null;
    let alarms: AlarmEngine | null = null;
    let maintenance: MaintenanceClock | null = null;
    if (opts.derivation) {
      const { timeZone, obdAlarmTypes } = opts.derivation;
      const engine = createAlarmEngine({ db: database.db, bus, log: app.log, obdAlarmTypes });
      alarms = engine;
      const sources = busSources(sharedView(bus, 'derive'));
      // Closed trips go out on the bus (event subscriptions queue them), whichever thread derived them.
      const onTripsClosed = (trips: ClosedTrip[]) => bus.publish('trips.closed', { trips });
      if (opts.derivation.thread) {
        if (!opts.database.databaseUrl) throw new Error('the derivation thread needs a PostgreSQL databaseUrl');
        derivation = await startDerivationThread({
          databaseUrl: opts.database.databaseUrl,
          prepare: opts.database.prepare,
          timeZone,
          obdAlarmTypes,
          sources,
          onRaised: engine.announce,
          onTripsClosed,
          log: app.log,
        });
      } else
        derivation = await startDerivation({
          db: database.db,
          timeZone,
          sources,
          oneConnection: database.kind === 'pglite',
          log: app.log,
          derivers: engineDerivers({ alarms: { onRaised: engine.announce, obdAlarmTypes }, trips: { onClosed: onTripsClosed } }),
        });
      undo.push(() => derivation!.close());
      watchDerivation(metrics, database.db);
      // Stopped after telematics closes (undo runs in reverse), so the last batches are still derived.
      undo.push(() => alarms!.stop());
    }
    // Forwarding subscribes before telematics publishes, like derivation.
    if (opts.forwarding) {
      forwarding = await startForwarding(bus, {
        db: database.db,
        log: app.log,
        jt809: opts.forwarding.jt809,
        allow: opts.app?.forwardAllow,
      });
      undo.push(() => forwarding!.stop());
    }
    let telematics: Telematics | null = null;
    if (opts.telematics) {
      const derived = derivation ? () => derivation!.idle() : undefined;
      telematics = await startTelematics(app, {
        database,
        secret,
        bus,
        nats,
        config: opts.telematics.config,
        fleet: opts.telematics.fleet,
        derived,
        frameTap: forwarding?.tapFrame,
      });
      undo.push(() => telematics!.close());
      if (telematics.gateway) watchGateway(metrics, telematics.gateway);
    }
    if (alarms) {
      // New alarms are delivered by the notification rules: the console (unread list and live
      // WebSocket of the members whose scope holds the vehicle), webhooks and SMS gateways.
      // The toast goes through the bus ('alarm.pushed'), so members connected to any process get it.
      const sink: RaisedAlarmSink | null = telematics
        ? { publishRaised: (items) => bus.publish('alarm.pushed', { items: items.map((x) => ({ ...x, memberIds: [...x.memberIds] })) }) }
        : null;
      const notifier = notifyDispatcher({
        db: database.db,
        sink,
        timeZone: opts.derivation!.timeZone,
        smtp: opts.derivation!.smtp,
        allow: opts.app?.webhookAllow,
        log: app.log,
        onAttempt: (outcome) => metrics.notifyAttempts.inc({ outcome }),
      });
      // Delivered once across processes (a webhook, SMS or mail is sent once); the live push then
      // reaches the members connected to every process (see README, Several gateways).
      // Counted where raised, once across processes (a queue group like the notifier's): the sum over processes is the fleet's.
      const unwatchAlarms = sharedView(bus, 'metrics').subscribe('alarm.raised', (a) => metrics.alarms.inc({ type: a.type }));
      undo.push(async () => unwatchAlarms());
      const unsubscribe = sharedView(bus, 'notify').subscribe('alarm.raised', (a) => notifier.onRaised([{ id: a.alarmId }]));
      undo.push(async () => unsubscribe());
      // Deliveries a previous process left pending (stopped between retries) go on.
      const resumed = await notifier.resume();
      if (resumed) app.log.info({ resumed }, 'pending alarm notifications resumed');
      // Stopped first on close (undo runs in reverse): retries still waiting stay pending in the log.
      undo.push(() => notifier.stop());
      // Event subscriptions: alarms and positions queued in the outbox, sent by every process that ticks.
      const subscriptions = startSubscriptions(bus, {
        db: database.db,
        allow: opts.app?.webhookAllow,
        smtp: opts.derivation!.smtp,
        clock: opts.derivation!.clock !== false,
        log: app.log,
        onAttempt: (outcome) => metrics.subscriptionAttempts.inc({ outcome }),
      });
      undo.push(() => subscriptions.stop());
      if (opts.derivation!.clock !== false) alarms.start();
      // Maintenance due and overdue: clock-driven too, announced through the engine (bus, notification rules).
      maintenance = new MaintenanceClock(database.db, { timeZone: opts.derivation!.timeZone, onRaised: alarms.announce, log: app.log });
      if (opts.derivation!.clock !== false) maintenance.start();
      undo.push(() => maintenance!.stop());
      // Scheduled reports: every process may tick, each firing is claimed once across them.
      if (opts.derivation!.clock !== false) {
        app.reportMail.start();
        undo.push(() => app.reportMail.stop());
      }
    }
    return { database, app, bus, secret, telematics, derivation, maintenance, forwarding, metrics, close };
  } catch (e) {
    await close();
    throw e;
  }
}
