/**
 * Recorded playback routes (code `video-playback`, vehicles of the caller's subtree):
 *   POST /api/video/records  {vehicleId, channel, begin, end} → the terminal's recordings of that
 *        channel (0 every channel) in the range, as its 0x1205 lists them;
 *   POST /api/video/playback {vehicleId, channel, begin, end?, audio?} → a stream ticket (30 s, one
 *        opening of /api/video/stream) for that viewer's own playback from `begin` (with its sound as
 *        PCM messages when `audio`), and the playback's id;
 *   POST /api/video/playback/:id/control {command, speed?, at?} → pause, resume, speed (×1 … ×16)
 *        or seek, sent to the terminal as 0x9202; only the member who opened the playback controls it.
 */

import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../platform/auth/authenticate';
import { AppError, notFound } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { PLAYBACK_SPEEDS, type PlaybackCommand } from './playbacks';
import type { VideoRouteDeps } from './routes';
import { MAX_CHANNEL, ticketFor, upstreamFailure, videoVehicle } from './videoVehicle';

export const VIDEO_PLAYBACK_PERMISSION = 'video-playback';
/** The longest range one resource query covers (a terminal's list of a longer one is too long to show). */
export const MAX_QUERY_DAYS = 7;

const time = { type: 'string', format: 'date-time', maxLength: 40 } as const;
const vehicleId = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

function range(begin: string, end: string | null | undefined): { begin: string; end: string | null } {
  const b = Date.parse(begin);
  const e = end ? Date.parse(end) : null;
  if (e !== null && e <= b) throw new AppError(400, 'video.badRange');
  if (e !== null && e - b > MAX_QUERY_DAYS * 86_400_000) throw new AppError(400, 'video.rangeTooLong', { days: MAX_QUERY_DAYS });
  return { begin: new Date(b).toISOString(), end: e === null ? null : new Date(e).toISOString() };
}

export function registerPlaybackRoutes(fastify: FastifyInstance, deps: VideoRouteDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const mediaOn = () => deps.video !== null && !!deps.resources;

  app.post(
    '/api/video/records',
    {
      config: { permission: VIDEO_PLAYBACK_PERMISSION },
      schema: {
        tags: ['video'],
        summary: "a vehicle camera's recordings in a time range, as the terminal lists them",
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['vehicleId', 'channel', 'begin', 'end'],
          properties: { vehicleId, channel: { type: 'integer', minimum: 0, maximum: MAX_CHANNEL }, begin: time, end: time },
        },
      },
    },
    async (req) => {
      const { body } = req;
      const r = range(body.begin, body.end);
      const v = await videoVehicle(db, callerOf(req), body.vehicleId, deps.isOnline, mediaOn());
      try {
        const list = await deps.resources!(v.terminalId, { channel: body.channel, begin: r.begin, end: r.end! });
        const records = list
          .filter((x) => x.begin !== null)
          .map((x) => ({
            channel: x.channel,
            begin: x.begin!,
            end: x.end,
            size: x.size,
            alarmFlags: x.alarmFlags,
            videoAlarmFlags: x.videoAlarmFlags,
            resourceType: x.resourceType,
            stream: x.stream,
            storage: x.storage,
          }))
          .sort((a, b) => a.begin.localeCompare(b.begin) || a.channel - b.channel);
        return { records };
      } catch (e) {
        throw upstreamFailure(e);
      }
    },
  );

  app.post(
    '/api/video/playback',
    {
      config: { permission: VIDEO_PLAYBACK_PERMISSION },
      schema: {
        tags: ['video'],
        summary: "a ticket to play back a vehicle camera's recording from a time",
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['vehicleId', 'channel', 'begin'],
          properties: {
            vehicleId,
            channel: { type: 'integer', minimum: 1, maximum: MAX_CHANNEL },
            begin: time,
            end: time,
            audio: { type: 'boolean' },
          },
        },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { body } = req;
      const r = range(body.begin, body.end);
      const v = await videoVehicle(db, caller, body.vehicleId, deps.isOnline, mediaOn());
      const playback = { id: crypto.randomBytes(12).toString('base64url'), ...r };
      return { ...ticketFor(caller, v, { channel: body.channel, audio: body.audio, playback }, deps.secret), playbackId: playback.id };
    },
  );

  app.post(
    '/api/video/playback/:id/control',
    {
      config: { permission: VIDEO_PLAYBACK_PERMISSION },
      schema: {
        tags: ['video'],
        summary: 'pause, resume, speed up or seek a playback (0x9202)',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } },
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['command'],
          properties: {
            command: { type: 'string', enum: ['pause', 'resume', 'speed', 'seek'] },
            speed: { type: 'integer', enum: [...PLAYBACK_SPEEDS] },
            at: time,
          },
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      const { body } = req;
      let command: PlaybackCommand;
      if (body.command === 'speed') {
        if (body.speed === undefined) throw new AppError(400, 'video.speedMissing');
        command = { kind: 'speed', speed: body.speed };
      } else if (body.command === 'seek') {
        if (body.at === undefined) throw new AppError(400, 'video.seekMissing');
        command = { kind: 'seek', at: new Date(Date.parse(body.at)).toISOString() };
      } else command = { kind: body.command };
      if (!(await deps.video?.control(id, callerOf(req).memberId, command))) throw notFound();
      return { ok: true };
    },
  );
}
