/**
 * The vehicle a video request names, as the caller may see it: in the caller's organisation
 * subtree (else 404, as if it did not exist), with a terminal, video on, and the terminal online.
 */

import type { Kysely } from 'kysely';
import type { Caller } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { AppError, notFound } from '../../platform/http/errors';
import { pathInSubtree } from '../../platform/scope';
import { UpstreamError } from './upstream';

/** JT/T 1078 logical channels run 1–37 (table 2); vendors use a few more. */
export const MAX_CHANNEL = 64;

export interface VideoVehicle {
  id: number;
  licence: string;
  terminalId: number;
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
