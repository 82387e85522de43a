/**
 * The photos a take-photo command brought: GET /api/vehicle/terminal/{id}/command/{commandId}/photos
 * lists the media the terminal uploaded under the ids its 0x0805 answer named, received since the
 * command was sent (a terminal reuses media ids in time). Empty until they arrive; the console asks
 * again until every named id is there. Scoped like every command route; each file is then read at
 * its `url` (the media routes, scoped by the vehicle).
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { notFound } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { MEDIA_COLUMNS, mediaView, type MediaRow } from '../media/mediaView';
import { commandParams, scopedTerminal } from './routes';

/** The media ids a command's response names (a take-photo answer's), none for any other. */
export function answeredMediaIds(response: unknown): number[] {
  const ids = (response as { mediaIds?: unknown } | null)?.mediaIds;
  return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
}

export function registerCommandPhotosRoute(fastify: FastifyInstance, db: Kysely<DB>): void {
  const app = typed(fastify);
  app.get(
    '/api/vehicle/terminal/:id/command/:commandId/photos',
    {
      config: { permission: NONE },
      schema: { tags: ['telematics'], summary: 'the photos a take-photo command brought, as they arrive', params: commandParams },
    },
    async (req) => {
      const terminalId = await scopedTerminal(db, req);
      const { commandId } = req.params;
      const command = await db
        .selectFrom('terminal_command')
        .select(['kind', 'response', 'created_at'])
        .where('id', '=', commandId)
        .where('terminal_id', '=', terminalId)
        .executeTakeFirst();
      if (!command || command.kind !== 'photo') throw notFound();
      const ids = answeredMediaIds(command.response);
      if (!ids.length) return { data: [], expected: 0 };
      const rows = await sql<MediaRow>`SELECT ${sql.raw(MEDIA_COLUMNS)} FROM media m
        WHERE m.terminal_id = ${terminalId} AND m.media_id IN (${sql.join(ids)}) AND m.received_at >= ${command.created_at}
        ORDER BY m.media_id, m.id`.execute(db);
      return { data: rows.rows.map(mediaView), expected: ids.length };
    },
  );
}
