/**
 * Uploaded media over HTTP: a vehicle's list, newest first and paged, and one file's content.
 * Both are scoped to the caller's organisation subtree through the vehicle the media belong to:
 * a vehicle or a media row outside it is a 404, as if it did not exist.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../../platform/auth/authenticate';
import { NONE } from '../../platform/auth/caller';
import { idParam } from '../../platform/crud/routeSpec';
import type { DB } from '../../platform/db/tables';
import { notFound } from '../../platform/http/errors';
import { orgUnder } from '../../platform/scope';
import { MEDIA_FORMATS } from '../jt808/codec';
import { MediaStore } from './mediaStore';
import { MEDIA_COLUMNS, mediaView, type MediaRow } from './mediaView';

/** Content types by the 0x0801 format code (jpeg, tif, mp3, wav, wmv). */
const CONTENT_TYPES = ['image/jpeg', 'image/tiff', 'audio/mpeg', 'audio/wav', 'video/x-ms-wmv'] as const;

const listQuery = {
  type: 'object',
  properties: {
    pageIndex: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
    event: { type: 'integer', minimum: 0, maximum: 255 },
  },
  additionalProperties: false,
} as const;

export function registerMediaRoutes(app: FastifyInstance, db: Kysely<DB>, mediaDir: string): void {
  const store = new MediaStore(db, mediaDir);

  app.get(
    '/api/vehicle/vehicle/:id/media',
    {
      config: { permission: NONE },
      schema: {
        tags: ['telematics'],
        summary: "a vehicle's uploaded photos, recordings and clips, newest first, paged (filter by event)",
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
        querystring: listQuery,
      },
    },
    async (req) => {
      const { id } = req.params as { id: number };
      const q = req.query as { pageIndex: number; pageSize: number; event?: number };
      const caller = callerOf(req);
      const vehicle = await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v WHERE v.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      if (!vehicle.rows[0]) throw notFound();
      const where = sql`m.vehicle_id = ${id}${q.event === undefined ? sql`` : sql` AND m.event = ${q.event}`}`;
      const [rows, count] = await Promise.all([
        sql<MediaRow>`SELECT ${sql.raw(MEDIA_COLUMNS)}
            FROM media m WHERE ${where} ORDER BY m.received_at DESC, m.id DESC
            LIMIT ${q.pageSize} OFFSET ${(q.pageIndex - 1) * q.pageSize}`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM media m WHERE ${where}`.execute(db),
      ]);
      return {
        data: rows.rows.map(mediaView),
        total: count.rows[0].n,
        totalExact: true,
        pageIndex: q.pageIndex,
        pageSize: q.pageSize,
      };
    },
  );

  app.get(
    '/api/vehicle/media/:id/content',
    {
      config: { permission: NONE },
      schema: {
        tags: ['telematics'],
        summary: 'the file of one uploaded media (a download; images and sound play inline in the browser)',
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: number };
      const caller = callerOf(req);
      const r = await sql<{ sha256: string; format: number; bytes: number }>`
        SELECT m.sha256, m.format, m.bytes FROM media m JOIN vehicle v ON v.id = m.vehicle_id
        WHERE m.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      const row = r.rows[0];
      if (!row) throw notFound();
      const file = store.fileOf(row.sha256);
      const size = await stat(file).then(
        (s) => s.size,
        () => -1,
      );
      if (size !== row.bytes) {
        // A row without its file is a fault of the store, not of the request.
        req.log.error({ mediaId: id, sha256: row.sha256 }, 'media file missing');
        throw notFound();
      }
      const ext = MEDIA_FORMATS[row.format] ?? 'bin';
      return reply
        .header('content-type', CONTENT_TYPES[row.format] ?? 'application/octet-stream')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="media-${id}.${ext === 'jpeg' ? 'jpg' : ext}"`)
        .send(createReadStream(file));
    },
  );
}
