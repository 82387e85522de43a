/**
 * Uploaded media over HTTP: a vehicle's list, newest first and paged, and one file's content.
 * Both are scoped to the caller's organisation subtree through the vehicle the media belong to:
 * a vehicle or a media row outside it is a 404, as if it did not exist.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { callerOf } from '../../platform/auth/authenticate';
import { NONE } from '../../platform/auth/caller';
import { idParam } from '../../platform/crud/routeSpec';
import type { DB } from '../../platform/db/tables';
import { notFound } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { orgUnder } from '../../platform/scope';
import { vehicleMediaSchema } from '../../../schemas/kit/media';
import { MEDIA_TYPES } from '../jt808/codec';
import { belongsToAlarm, MEDIA_TIME } from './alarmMedia';
import { MediaStore } from './mediaStore';
import { MEDIA_COLUMNS, mediaContentType, mediaEvidence, mediaFileName, mediaView, type MediaRow } from './mediaView';

/** Content types of active safety attachments by their name's suffix; others download as bytes. */
const ATTACHMENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  h264: 'video/h264',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  txt: 'text/plain; charset=utf-8',
};
const ATTACHMENT_KINDS = ['picture', 'audio', 'video', 'text', 'other'] as const;
const contentTypeOf = (name: string): string => ATTACHMENT_TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

const listQuery = {
  type: 'object',
  properties: {
    pageIndex: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
    /** The 0x0800 event code (0 platform command, 1 timed, 2 robbery alarm, 3 collision alarm…). */
    event: { type: 'integer', minimum: 0, maximum: 255 },
    channel: { type: 'integer', minimum: 0, maximum: 255 },
    type: { type: 'string', enum: [...MEDIA_TYPES] },
    /** When taken (the position it carries, else when it arrived), from and before. */
    begin: { type: 'string', format: 'date-time' },
    end: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
} as const;

type ListQuery = FromSchema<typeof listQuery>;

const mediaPage = {
  type: 'object',
  additionalProperties: false,
  properties: {
    data: { type: 'array', items: vehicleMediaSchema },
    total: { type: 'integer' },
    totalExact: { type: 'boolean' },
    pageIndex: { type: 'integer' },
    pageSize: { type: 'integer' },
  },
} as const;

/** The list's conditions on `media m` besides its vehicle, each only when asked. */
function listFilters(q: ListQuery): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (q.event !== undefined) where.push(sql`m.event = ${q.event}`);
  if (q.channel !== undefined) where.push(sql`m.channel = ${q.channel}`);
  if (q.type !== undefined) where.push(sql`m.type = ${MEDIA_TYPES.indexOf(q.type)}`);
  if (q.begin !== undefined) where.push(sql`${MEDIA_TIME} >= ${new Date(q.begin)}`);
  if (q.end !== undefined) where.push(sql`${MEDIA_TIME} < ${new Date(q.end)}`);
  return where;
}

export function registerMediaRoutes(fastify: FastifyInstance, db: Kysely<DB>, mediaDir: string): void {
  const app = typed(fastify);
  const store = new MediaStore(db, mediaDir);
  /** A row's file in the store, whole; a row without its file is a fault of the store (logged), answered 404. */
  const storedFile = async (req: FastifyRequest, sha256: string, bytes: number, ids: object): Promise<{ file: string; size: number }> => {
    const file = store.fileOf(sha256);
    const size = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (size !== bytes) {
      req.log.error({ ...ids, sha256 }, 'stored media file missing');
      throw notFound();
    }
    return { file, size };
  };

  app.get(
    '/api/vehicle/vehicle/:id/media',
    {
      config: { permission: NONE },
      schema: {
        tags: ['telematics'],
        summary: "a vehicle's uploaded photos, recordings and clips, newest taken first, paged (filter by event, channel, type, time)",
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
        querystring: listQuery,
        response: { 200: mediaPage },
      },
    },
    async (req) => {
      const { id } = req.params;
      const q = req.query;
      const caller = callerOf(req);
      const vehicle = await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v WHERE v.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      if (!vehicle.rows[0]) throw notFound();
      const where = sql.join([sql`m.vehicle_id = ${id}`, ...listFilters(q)], sql` AND `);
      const [rows, count] = await Promise.all([
        sql<MediaRow>`SELECT ${sql.raw(MEDIA_COLUMNS)}
            FROM media m WHERE ${where} ORDER BY ${MEDIA_TIME} DESC, m.id DESC
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
      const { id } = req.params;
      const caller = callerOf(req);
      const r = await sql<{ sha256: string; format: number; bytes: number }>`
        SELECT m.sha256, m.format, m.bytes FROM media m JOIN vehicle v ON v.id = m.vehicle_id
        WHERE m.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      const row = r.rows[0];
      if (!row) throw notFound();
      const { file, size } = await storedFile(req, row.sha256, row.bytes, { mediaId: id });
      return reply
        .header('content-type', mediaContentType(row.format))
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${mediaFileName(id, row.format)}"`)
        .send(createReadStream(file));
    },
  );

  app.get(
    '/api/vehicle/alarm/:id/evidence',
    {
      config: { permission: NONE },
      schema: {
        tags: ['alarm'],
        summary:
          "an alarm's photos and clips: the active safety attachments the terminal uploaded for it, then the media it took for the alarm (server/telematics/media/alarmMedia.ts)",
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
      },
    },
    async (req) => {
      const { id } = req.params;
      const caller = callerOf(req);
      // The alarm's key (terminal id, alarm time, sequence) ties it to the files of its vehicle.
      const alarm = await sql<{ vehicleId: number; type: string; begin: Date; end: Date | null; key: string | null }>`
        SELECT a.vehicle_id AS "vehicleId", a.type, a.begin_time AS begin, a.end_time AS end, a.detail->'safety'->>'key' AS key
        FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id
        WHERE a.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      const found = alarm.rows[0];
      if (!found) throw notFound();
      const ofAlarm = belongsToAlarm(found);
      const [attachments, media] = await Promise.all([
        found.key
          ? sql<{ id: string; name: string; type: number; bytes: string | number; receivedAt: Date }>`
              SELECT x.id, x.file_name AS name, x.file_type AS type, x.bytes, x.received_at AS "receivedAt" FROM alarm_attachment x
              WHERE x.vehicle_id = ${found.vehicleId} AND x.alarm_key = ${found.key} ORDER BY x.file_type, x.file_name`
              .execute(db)
              .then((r) => r.rows)
          : [],
        ofAlarm
          ? sql<MediaRow>`SELECT ${sql.raw(MEDIA_COLUMNS)} FROM media m WHERE ${ofAlarm} ORDER BY ${MEDIA_TIME}, m.id`
              .execute(db)
              .then((r) => r.rows)
          : [],
      ]);
      return {
        data: [
          ...attachments.map((r) => ({
            id: Number(r.id),
            source: 'attachment' as const,
            name: r.name,
            kind: ATTACHMENT_KINDS[r.type] ?? 'other',
            contentType: contentTypeOf(r.name),
            bytes: Number(r.bytes),
            takenAt: null,
            receivedAt: new Date(r.receivedAt).toISOString(),
            url: `/api/vehicle/attachment/${r.id}/content`,
          })),
          ...media.map(mediaEvidence),
        ],
      };
    },
  );

  app.get(
    '/api/vehicle/attachment/:id/content',
    {
      config: { permission: NONE },
      schema: {
        tags: ['alarm'],
        summary:
          'the file of one active safety attachment: shown inline (photos, clips the browser plays), or a download with ?download=true',
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
        querystring: { type: 'object', properties: { download: { type: 'boolean', default: false } }, additionalProperties: false },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const { download } = req.query;
      const caller = callerOf(req);
      const r = await sql<{ sha256: string; name: string; bytes: string | number }>`
        SELECT x.sha256, x.file_name AS name, x.bytes FROM alarm_attachment x JOIN vehicle v ON v.id = x.vehicle_id
        WHERE x.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
      const row = r.rows[0];
      if (!row) throw notFound();
      const { file, size } = await storedFile(req, row.sha256, Number(row.bytes), { attachmentId: id });
      // The stored name is a plain name (the attachment service refuses any other).
      return reply
        .header('content-type', contentTypeOf(row.name))
        .header('content-length', size)
        .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${row.name}"`)
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(file));
    },
  );
}
