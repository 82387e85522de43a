/**
 * The vehicle a video request names, as the caller may see it: in the caller's organisation
 * subtree (else 404, as if it did not exist), with a terminal, video on, and the terminal online.
 */

import type { Kysely } from 'kysely';
import type { Caller } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { AppError, notFound } from '../../platform/http/errors';
import { pathInSubtree } from '../../platform/scope';
import { signStreamTicket, type PlaybackClaims } from './streamTicket';
import { UpstreamError } from './upstream';

/** JT/T 1078 logical channels run 1–37 (table 2); vendors use a few more. */
export const MAX_CHANNEL = 64;

export interface VideoVehicle {
  id: number;
  licence: string;
  terminalId: number;
}

/**
 * A ticket for the caller to watch a channel of this vehicle, live or (with `playback`) a
 * recording, with the stream URL it opens and when it expires.
 */
export function ticketFor(
  caller: Pick<Caller, 'memberId' | 'name' | 'orgId'>,
  v: VideoVehicle,
  view: { channel: number; audio?: boolean; playback?: PlaybackClaims },
  secret: string,
): { ticket: string; url: string; expiresAt: string } {
  const { ticket, exp } = signStreamTicket(
    {
      kind: view.playback ? 'playback' : 'live',
      ...(view.playback ? { playback: view.playback } : {}),
      memberId: caller.memberId,
      memberName: caller.name,
      orgId: caller.orgId,
      vehicleId: v.id,
      licence: v.licence,
      terminalId: v.terminalId,
      channel: view.channel,
      audio: view.audio === true,
    },
    secret,
  );
  return { ticket, url: `/api/video/stream?ticket=${encodeURIComponent(ticket)}`, expiresAt: new Date(exp).toISOString() };
}

export async function videoVehicle(
  db: Kysely<DB>,
  caller: Pick<Caller, 'orgPath'>,
  vehicleId: number,
  isOnline: ((terminalId: number) => boolean | Promise<boolean>) | null,
  mediaOn: boolean,
): Promise<VideoVehicle> {
  const v = await db
    .selectFrom('vehicle')
    .innerJoin('organisation', 'organisation.id', 'vehicle.org_id')
    .select(['vehicle.id', 'vehicle.licence', 'vehicle.terminal_id', 'organisation.path'])
    .where('vehicle.id', '=', vehicleId)
    .executeTakeFirst();
  if (!v || !pathInSubtree(caller.orgPath, v.path)) throw notFound();
  if (v.terminal_id === null) throw new AppError(406, 'video.noTerminal');
  if (!mediaOn || !isOnline) throw new AppError(406, 'video.mediaOff');
  if (!(await isOnline(v.terminal_id))) throw new AppError(406, 'telematics.terminalOffline');
  return { id: v.id, licence: v.licence, terminalId: v.terminal_id };
}

/** A terminal's failure to answer a video message, as the caller is told it. */
export function upstreamFailure(e: unknown): unknown {
  if (!(e instanceof UpstreamError)) return e;
  if (e.reason === 'offline') return new AppError(406, 'telematics.terminalOffline');
  return new AppError(406, e.reason === 'refused' ? 'video.terminalRefused' : 'video.noAnswer');
}
