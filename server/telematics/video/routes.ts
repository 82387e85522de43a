/**
 * Video routes:
 *   POST /api/video/live {vehicleId, channel, audio?}  (code `video-live`, the caller's subtree) → a
 *        stream ticket for that vehicle's camera channel, valid 30 s for one opening (with `audio`, the
 *        stream carries the channel's sound too, as PCM messages: audio.ts);
 *   GET  /api/video/stream?ticket=…&clock=…    (WebSocket) → the channel as FLV (H.264), binary
 *        messages, as mpegts.js plays it. The first viewer of a channel asks the terminal to stream;
 *        a playback ticket (playbackRoutes.ts) opens that viewer's own playback instead.
 *   GET  /api/video/channels?vehicleId=…       → the vehicle's camera channels and their names
 *        (channelNames.ts).
 * Every opening is audited (videoOpen / playbackOpen), and its end with how long it lasted
 * (videoClose / playbackClose).
 */

import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { writeAudit } from '../../platform/audit';
import { callerOf } from '../../platform/auth/authenticate';
import { NONE, PUBLIC } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { notFound, unauthorized } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { pathInSubtree } from '../../platform/scope';
import { vehicleChannelNames } from './channelNames';
import type { ResourceQuery } from './upstream';
import type { Viewer } from './liveChannels';
import { registerPlaybackRoutes } from './playbackRoutes';
import type { VideoSource } from './source';
import { TicketBook, type StreamClaims } from './streamTicket';
import { MAX_CHANNEL, ticketFor, videoVehicle } from './videoVehicle';
import type { VideoResource } from '../jt808/codec';

export const VIDEO_LIVE_PERMISSION = 'video-live';
/** A viewer this far behind (bytes not yet sent) is dropped rather than buffered without end. */
const MAX_BACKLOG = 8 * 1024 * 1024;

/** The minimum of a `ws` socket this route uses. */
interface VideoSocket {
  readonly bufferedAmount: number;
  send(data: Buffer, opts: { binary: boolean }): void;
  close(code?: number, reason?: string): void;
  on(event: 'close', fn: () => void): void;
}

export interface VideoRouteDeps {
  db: Kysely<DB>;
  /** The live channels and playbacks, here or in the worker holding the terminal; null when the media server is off (JT1078_MEDIA_PORT=0 or no gateway). */
  video: VideoSource | null;
  secret: string;
  /** Whether the terminal has a live 808 session. */
  isOnline: ((terminalId: number) => boolean | Promise<boolean>) | null;
  /** A terminal's recordings (0x9205 → 0x1205). */
  resources?: ((terminalId: number, q: ResourceQuery) => Promise<VideoResource[]>) | null;
}

/** The stream's `?ticket=` (a WebSocket route's hooks are not typed by its schema), '' without one. */
const ticketOf = (query: unknown): string =>
  query && typeof query === 'object' && 'ticket' in query && typeof query.ticket === 'string' ? query.ticket : '';

/** The stream's `?clock=true` (coerced to a boolean by the querystring's schema). */
const clockOf = (query: unknown): boolean => Boolean(query && typeof query === 'object' && 'clock' in query && query.clock === true);

export async function registerVideoRoutes(fastify: FastifyInstance, deps: VideoRouteDeps): Promise<void> {
  const app = typed(fastify);
  const { db } = deps;
  const book = new TicketBook(deps.secret);
  /** The checked ticket of each upgrade request, from its preValidation to its handler. */
  const claimsOf = new WeakMap<FastifyRequest, StreamClaims>();
  if (!app.hasPlugin('@fastify/websocket')) await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  app.post(
    '/api/video/live',
    {
      config: { permission: VIDEO_LIVE_PERMISSION },
      schema: {
        tags: ['video'],
        summary: 'a ticket to watch a vehicle camera channel live',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['vehicleId', 'channel'],
          properties: {
            vehicleId: { type: 'integer', minimum: 1, maximum: 2147483647 },
            channel: { type: 'integer', minimum: 1, maximum: MAX_CHANNEL },
            audio: { type: 'boolean' },
          },
        },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { vehicleId, channel, audio } = req.body;
      const v = await videoVehicle(db, caller, vehicleId, deps.isOnline, deps.video !== null);
      return ticketFor(caller, v, { channel, audio }, deps.secret);
    },
  );

  app.get(
    '/api/video/channels',
    {
      // Names only, for whoever may see the vehicle: the video codes guard the streams.
      config: { permission: NONE },
      schema: {
        tags: ['video'],
        summary: "a vehicle's camera channels and their names (its model's, else null: the default name)",
        querystring: {
          type: 'object',
          required: ['vehicleId'],
          properties: { vehicleId: { type: 'integer', minimum: 1, maximum: 2147483647 } },
        },
      },
    },
    async (req) => {
      const { vehicleId } = req.query;
      const v = await db
        .selectFrom('vehicle')
        .innerJoin('organisation', 'organisation.id', 'vehicle.org_id')
        .select(['organisation.path'])
        .where('vehicle.id', '=', vehicleId)
        .executeTakeFirst();
      if (!v || !pathInSubtree(callerOf(req).orgPath, v.path)) throw notFound();
      return { channels: await vehicleChannelNames(db, vehicleId) };
    },
  );

  app.get(
    '/api/video/stream',
    {
      websocket: true,
      // PUBLIC for the bearer-header hook only: the ticket is checked right here, before the upgrade.
      config: { permission: PUBLIC },
      schema: {
        tags: ['video'],
        summary: 'a camera channel, live or played back, as FLV (WebSocket)',
        querystring: {
          type: 'object',
          required: ['ticket'],
          // clock: clock messages beside a live stream's FLV, for the player's latency (clock.ts).
          properties: { ticket: { type: 'string', maxLength: 2048 }, clock: { type: 'boolean' } },
        },
      },
      preValidation: async (req) => {
        const r = book.check(ticketOf(req.query));
        if (!r.ok) throw unauthorized(r.reason === 'expired' ? 'video.ticketExpired' : 'video.ticketInvalid');
        claimsOf.set(req, r.claims);
      },
    },
    (raw, req) => {
      const socket = raw as unknown as VideoSocket; // the ws socket; typed by the interface above
      const claims = claimsOf.get(req);
      const { video } = deps;
      if (!video || !claims) return socket.close(1011, 'video off');
      const opened = Date.now();
      const who = { member: { id: claims.memberId, name: claims.memberName, orgId: claims.orgId }, ip: req.ip };
      const target = `${claims.licence} #${claims.channel}`;
      const playback = claims.kind === 'playback' ? claims.playback : undefined;
      const detail = {
        vehicleId: claims.vehicleId,
        terminalId: claims.terminalId,
        channel: claims.channel,
        ...(playback ? { begin: playback.begin, end: playback.end } : {}),
      };
      const [openAction, closeAction] = playback ? ['playbackOpen', 'playbackClose'] : ['videoOpen', 'videoClose'];
      void writeAudit(db, { ...who, action: openAction, target, detail }).catch((e: unknown) => req.log.error(e));
      let open = true;
      const viewer: Viewer = {
        audio: claims.audio === true,
        clock: clockOf(req.query),
        send: (chunk) => {
          if (!open) return;
          if (socket.bufferedAmount > MAX_BACKLOG) return socket.close(1013, 'viewer too slow');
          socket.send(chunk, { binary: true });
        },
        // WebSocket close reasons are at most 123 bytes.
        end: (reason) => open && socket.close(4000, reason.slice(0, 120)),
      };
      const key = { terminalId: claims.terminalId, channel: claims.channel };
      let leave: () => void;
      if (playback) leave = video.playback(playback.id, key, playback, claims.memberId, viewer);
      else leave = video.watch(key, viewer);
      socket.on('close', () => {
        open = false;
        leave();
        void writeAudit(db, { ...who, action: closeAction, target, detail: { ...detail, durationMs: Date.now() - opened } }).catch(
          (e: unknown) => req.log.error(e),
        );
      });
    },
  );

  registerPlaybackRoutes(app, deps);
}
