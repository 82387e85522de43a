import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../auth/authenticate';
import { PROGRESS_HEADER, PROGRESS_ID_PATTERN, type Progress, type ProgressPhase } from './board';

/** The progress id as a route's header schema checks it (400 in the caller's language when malformed). */
export const progressIdSchema = { type: 'string', pattern: PROGRESS_ID_PATTERN, 'x-messages': { pattern: 'progress.badId' } } as const;

/** Header schema of a route that reports progress: the id is optional (scripts need not follow). */
export const progressHeaders = { type: 'object', properties: { [PROGRESS_HEADER]: progressIdSchema } };

/**
 * Follows one export or import under the id its caller sent: the route reports rows as it goes,
 * and the request is cancelled (its signal aborted) when the member cancels or the connection
 * closes before the answer is complete.
 */
export function trackRequest(req: FastifyRequest, reply: FastifyReply, phase: ProgressPhase): Progress {
  const id = req.headers[PROGRESS_HEADER];
  const p = req.server.progressBoard.begin(callerOf(req).memberId, typeof id === 'string' ? id : undefined, phase);
  // Gone before the route began (a cancel that raced the request): nothing is to be done.
  if (req.raw.socket?.destroyed) p.abandon();
  reply.raw.once('close', () => {
    // writableEnded: the whole answer was handed over (the client may still be reading it).
    if (!reply.raw.writableEnded) p.abandon();
    else if (reply.raw.statusCode >= 400) p.fail();
    else {
      try {
        p.finish();
      } catch {
        // cancelled just as the answer went out: the state says so already
      }
    }
  });
  return p;
}
