/**
 * Telematics wiring: the JT/T 808 gateway, the position and OBD writers (each committed batch is
 * published on the bus), downlink command and live-push routes, and whatever fleet the caller
 * passes in to drive the gateway (the demo simulator, from bootstrap). One start and one close.
 */

import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { ServerBus } from '../platform/bus';
import type { MediaStored } from '../platform/telemetry';
import type { Database } from '../platform/db/database';
import type { DB } from '../platform/db/tables';
import type { FrameTap } from '../platform/telemetry';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsDownlink, serveDownlink } from './cluster/downlink';
import { NatsVideo, serveVideo } from './cluster/video';
import { upgradeBytes } from './commands/upgradeBytes';
import { CommandService } from './commands/service';
import { AttachmentRequester } from './attachments/requests';
import { AttachmentServer } from './attachments/server';
import { DEFAULT_SAFETY_POLICY } from './gateway/safetyStandard';
import { MediaStore } from './media/mediaStore';
import { Jt808Gateway } from './gateway/server';
import { LiveHub } from './live/hub';
import { SessionWatch } from './live/sessionWatch';
import { registerTelematicsRoutes } from './routes';
import { findTerminal } from './gateway/terminals';
import { LiveChannels } from './video/liveChannels';
import { MediaServer } from './video/mediaServer';
import { registerVideoRoutes } from './video/routes';
import { Playbacks } from './video/playbacks';
import { localVideo } from './video/source';
import { downlinkPlayback, downlinkStatus, downlinkUpstream, queryResources, type MediaAddress } from './video/upstream';
import { ObdWriter } from './store/obdWriter';
import { PositionWriter } from './store/writer';

/** A running fleet of terminals driving the gateway. */
export interface RunningFleet {
  stop(graceMs: number): Promise<void>;
}

/**
 * Starts terminals against the gateway once it listens (null: none to run). Passed in, so
 * telematics never imports the demo simulator.
 */
export type FleetStarter = (gateway: { host: string; port: number }, context: FleetContext) => Promise<RunningFleet | null>;

export interface FleetContext {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** Resolves once everything stored so far is derived (when a derivation pipeline runs). */
  derived?: () => Promise<void>;
}

export interface Telematics {
  /** Null when the gateway is disabled (JT808_PORT=0). */
  gateway: Jt808Gateway | null;
  port: number | null;
  hub: LiveHub;
  fleet: RunningFleet | null;
  close(): Promise<void>;
}

export interface TelematicsOptions {
  database: Database;
  config: Pick<Config, 'jt808Port' | 'host' | 'tokenTtlHours'> &
    Partial<
      Pick<
        Config,
        | 'jt808Limits'
        | 'jt808Checksum'
        | 'jt808Safety'
        | 'jt808Attachments'
        | 'gatewayWorker'
        | 'dataDir'
        | 'jt1078MediaPort'
        | 'jt1078MediaHost'
      >
    >;
  secret: string;
  /** Where committed batches are published ('positions.stored', 'obd.stored'); the live hub listens there. */
  bus: ServerBus;
  fleet?: FleetStarter;
  /** With NATS: commands go down through whichever process holds the terminal, and this gateway serves its own. */
  nats?: NatsConnection;
  /** Handed to the fleet: resolves once what was stored so far is derived. */
  derived?: () => Promise<void>;
  /** Told every packet of an authenticated terminal (forwarding's raw JT/T 808 links). */
  frameTap?: FrameTap;
}

/**
 * Registers the telematics routes on `app` (call before app.listen) and starts the gateway and
 * the fleet. Routes answer 406 "terminal offline" when the gateway is disabled.
 */
export async function startTelematics(app: FastifyInstance, opts: TelematicsOptions): Promise<Telematics> {
  const { database, config, bus } = opts;
  const db = database.db;
  const writer = new PositionWriter(db, { concurrency: database.kind === 'postgres' ? 4 : 1, copyPool: database.pool });
  const obdWriter = new ObdWriter(db);
  writer.on('stored', (batch) => bus.publish('positions.stored', batch));
  obdWriter.on('stored', (batch) => bus.publish('obd.stored', batch));
  const hub = new LiveHub();
  // With no live socket on this process, a batch from the bus is not even decoded.
  const unsubscribeHub = bus.subscribe('positions.stored', hub.publish, { active: () => hub.listening });
  // Every process pushes the alarm toasts to its own members, whichever process decided them.
  const unsubscribeAlarms = bus.subscribe('alarm.pushed', ({ items }) =>
    hub.publishRaised(items.map((x) => ({ ...x, memberIds: new Set(x.memberIds) }))),
  );
  // Every process closes its own sockets of sessions that ended, whichever process ended them.
  const watch = new SessionWatch(db, app.log);
  const unsubscribeSessions = bus.subscribe('sessions.changed', () => watch.check());
  const { maxConnections, fdReserve, ...limits } = config.jt808Limits ?? {};
  const defined = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
  const mediaDir = config.dataDir ? path.join(config.dataDir, 'media') : undefined;
  // The attachment service runs beside the gateway, with the media store its files go to.
  const upload = config.jt808Port && mediaDir ? config.jt808Attachments : undefined;
  const attachmentServer =
    upload && mediaDir
      ? new AttachmentServer({
          db,
          media: new MediaStore(db, mediaDir),
          safety: config.jt808Safety ?? DEFAULT_SAFETY_POLICY,
          log: app.log,
          limits: { maxFileBytes: upload.maxFileBytes },
        })
      : null;
  const gateway = config.jt808Port
    ? new Jt808Gateway({
        db,
        pool: database.pool,
        writer,
        obdWriter,
        log: app.log,
        maxConnections,
        fdReserve,
        limits: defined,
        checksum: config.jt808Checksum,
        safety: config.jt808Safety,
        mediaDir,
        attachments: upload ? new AttachmentRequester({ db, host: upload.host, port: upload.port, log: app.log }) : undefined,
        resetLinkState: !config.gatewayWorker,
        frameTap: opts.frameTap,
      })
    : null;
  const downlink = gateway && opts.nats ? new NatsDownlink(opts.nats) : gateway;
  const stopServing = gateway && opts.nats ? serveDownlink(opts.nats, gateway, upgradeBytes(db)) : () => undefined;
  // Finished commands and new media go out on the bus (event subscriptions queue them).
  const commands = downlink ? new CommandService(db, downlink, undefined, (f) => bus.publish('command.finished', f)) : null;
  gateway?.on('mediaStored', (m: MediaStored) => bus.publish('media.stored', m));
  // A registration reset drops the session on whichever worker holds it.
  const disconnect = downlink instanceof NatsDownlink ? (id: number, reason: string) => downlink.disconnect(id, reason) : undefined;
  // So does a binding change reach the session, wherever it is held.
  const rebind = downlink instanceof NatsDownlink ? (ids: number[]) => downlink.rebind(ids) : undefined;
  await registerTelematicsRoutes(app, {
    db,
    commands,
    gateway,
    hub,
    watch,
    disconnect,
    rebind,
    sessionDeps: { db, secret: opts.secret, ttlHours: config.tokenTtlHours },
  });

  // Video: each gateway process runs a media server for the terminals whose session it holds, on a
  // port of its own (worker n: JT1078_MEDIA_PORT + n − 1), named in the 0x9101/0x9201 it sends them;
  // with NATS the routes of every process reach that holder (cluster/video.ts).
  const mediaBase = gateway ? (config.jt1078MediaPort ?? 0) : 0;
  const mediaPort = mediaBase && config.gatewayWorker ? mediaBase + config.gatewayWorker - 1 : mediaBase;
  const mediaAddress: MediaAddress = { host: config.jt1078MediaHost ?? '127.0.0.1', port: mediaPort };
  // The holder's own gateway carries the signalling: the session is here.
  const channels = mediaPort && gateway ? new LiveChannels(downlinkUpstream(gateway, mediaAddress)) : null;
  const playbacks = channels && gateway ? new Playbacks(downlinkPlayback(gateway, mediaAddress)) : null;
  const mediaServer =
    channels && gateway
      ? new MediaServer({
          channels,
          playbacks: playbacks ?? undefined,
          status: downlinkStatus(gateway),
          log: app.log,
          resolve: async (sim) => (await findTerminal(db, sim))?.terminalId ?? null,
        })
      : null;
  const here = channels && playbacks ? localVideo(channels, playbacks) : null;
  const natsVideo = here && opts.nats ? new NatsVideo(opts.nats) : null;
  const stopServingVideo = here && gateway && opts.nats ? serveVideo(opts.nats, gateway, here) : () => undefined;
  await registerVideoRoutes(app, {
    db,
    video: natsVideo ?? here,
    resources: here && downlink ? (terminalId, q) => queryResources(downlink, terminalId, q) : null,
    secret: opts.secret,
    isOnline: downlink ? (terminalId) => downlink.isOnline(terminalId) : null,
  });

  let port: number | null = null;
  let fleet: RunningFleet | null = null;
  if (gateway && commands) {
    await commands.expireStale();
    port = await gateway.listen(config.jt808Port, config.host);
    if (attachmentServer && upload) {
      const at = await attachmentServer.listen(upload.port, config.host);
      app.log.info({ port: at, maxFileBytes: upload.maxFileBytes }, 'JT/T 808 attachment service listening');
    }
    app.log.info({ port, maxConnections: gateway.admission.limits.maxConnections }, 'JT/T 808 gateway listening');
    if (mediaServer) {
      mediaAddress.port = await mediaServer.listen(mediaPort, config.host);
      app.log.info({ port: mediaAddress.port, host: mediaAddress.host }, 'JT/T 1078 media server listening');
    }
    fleet = (await opts.fleet?.({ host: '127.0.0.1', port }, { db, log: app.log, derived: opts.derived })) ?? null;
  }
  return {
    gateway,
    port,
    hub,
    fleet,
    async close() {
      await fleet?.stop(1000);
      channels?.close();
      playbacks?.close();
      stopServingVideo();
      natsVideo?.close();
      await mediaServer?.close();
      commands?.close();
      stopServing();
      if (downlink instanceof NatsDownlink) downlink.close();
      await gateway?.close();
      await attachmentServer?.close();
      await Promise.all([writer.flush(), obdWriter.flush()]);
      unsubscribeHub();
      unsubscribeAlarms();
      unsubscribeSessions();
      watch.stop();
    },
  };
}
