/**
 * Live video routes:
 *   POST /api/video/live {vehicleId, channel}  (code `video-live`, the caller's subtree) → a stream
 *        ticket for that vehicle's camera channel, valid 30 s for one opening;
 *   GET  /api/video/stream?ticket=…            (WebSocket) → the channel as FLV (H.264), binary
 *        messages, as mpegts.js plays it. The first viewer of a channel asks the terminal to stream.
 * Every opening is audited (videoOpen), and its end with how long it lasted (videoClose).
 */

import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { writeAudit } from '../../platform/audit';
import { callerOf } from '../../platform/auth/authenticate';
import { PUBLIC } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { AppError, notFound, unauthorized } from '../../platform/http/errors';
import { pathInSubtree } from '../../platform/scope';
import type { LiveChannels } from './liveChannels';
import { signStreamTicket, TicketBook, type StreamClaims } from './streamTicket';

export const VIDEO_LIVE_PERMISSION = 'video-live';
/** A viewer this far behind (bytes not yet sent) is dropped rather than buffered without end. */
const MAX_BACKLOG = 8 * 1024 * 1024;
/** JT/T 1078 logical channels run 1–37 (table 2); vendors use a few more. */
const MAX_CHANNEL = 64;

/** The minimum of a `ws` socket this route uses. */
interface VideoSocket {
  readonly bufferedAmount: number;
  send(data: Buffer, opts: { binary: boolean }): void;
  close(code?: number, reason?: string): void;
  on(event: 'close', fn: () => void): void;
}

export interface VideoRouteDeps {
  db: Kysely<DB>;
  /** Null when the media server is off (JT1078_MEDIA_PORT=0 or no gateway). */
  channels: LiveChannels | null;
  secret: string;
  /** Whether the terminal has a live 808 session. */
  isOnline: ((terminalId: number) => boolean | Promise<boolean>) | null;
}

export async function registerVideoRoutes(app: FastifyInstance, deps: VideoRouteDeps): Promise<void> {
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
          },
        },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { vehicleId, channel } = req.body as { vehicleId: number; channel: number };
      const v = await db
        .selectFrom('vehicle')
        .innerJoin('organisation', 'organisation.id', 'vehicle.org_id')
        .select(['vehicle.id', 'vehicle.licence', 'vehicle.terminal_id', 'organisation.path'])
        .where('vehicle.id', '=', vehicleId)
        .executeTakeFirst();
      if (!v || !pathInSubtree(caller.orgPath, v.path)) throw notFound();
      if (v.terminal_id === null) throw new AppError(406, 'video.noTerminal');
      if (!deps.channels || !deps.isOnline) throw new AppError(406, 'video.mediaOff');
      if (!(await deps.isOnline(v.terminal_id))) throw new AppError(406, 'telematics.terminalOffline');
      const { ticket, exp } = signStreamTicket(
        {
          kind: 'live',
          memberId: caller.memberId,
          memberName: caller.name,
          orgId: caller.orgId,
          vehicleId: v.id,
          licence: v.licence,
          terminalId: v.terminal_id,
          channel,
        },
        deps.secret,
      );
      return { ticket, url: `/api/video/stream?ticket=${encodeURIComponent(ticket)}`, expiresAt: new Date(exp).toISOString() };
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
        summary: 'a live camera channel as FLV (WebSocket)',
        querystring: { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string', maxLength: 2048 } } },
      },
      preValidation: async (req) => {
        const r = book.check((req.query as { ticket?: string }).ticket ?? '');
        if (!r.ok) throw unauthorized(r.reason === 'expired' ? 'video.ticketExpired' : 'video.ticketInvalid');
        claimsOf.set(req, r.claims);
      },
    },
    (raw, req) => {
      const socket = raw as unknown as VideoSocket; // the ws socket; typed by the interface above
      const claims = claimsOf.get(req);
      const channels = deps.channels;
      if (!channels || !claims) return socket.close(1011, 'video off');
      const opened = Date.now();
      const who = { member: { id: claims.memberId, name: claims.memberName, orgId: claims.orgId }, ip: req.ip };
      const target = `${claims.licence} #${claims.channel}`;
      const detail = { vehicleId: claims.vehicleId, terminalId: claims.terminalId, channel: claims.channel };
      void writeAudit(db, { ...who, action: 'videoOpen', target, detail }).catch((e: unknown) => req.log.error(e));
      let open = true;
      const leave = channels.watch(
        { terminalId: claims.terminalId, channel: claims.channel },
        {
          send: (chunk) => {
            if (!open) return;
            if (socket.bufferedAmount > MAX_BACKLOG) return socket.close(1013, 'viewer too slow');
            socket.send(chunk, { binary: true });
          },
          // WebSocket close reasons are at most 123 bytes.
          end: (reason) => open && socket.close(4000, reason.slice(0, 120)),
        },
      );
      socket.on('close', () => {
        open = false;
        leave();
        void writeAudit(db, { ...who, action: 'videoClose', target, detail: { ...detail, durationMs: Date.now() - opened } }).catch(
          (e: unknown) => req.log.error(e),
        );
      });
    },
  );
}
