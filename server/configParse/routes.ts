/**
 * The configuration parse file's XML (SPEC.md §3, §5): upload one .xml file of at most 1 MB to a
 * record, checked by `checkXml`, and download it again. Both are scoped to the caller's
 * organisation subtree through the record; an upload stamps the record like an edit does.
 */

import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import type { EntityModel } from '../platform/crud/model';
import { getOne, scopeCondition } from '../platform/crud/query';
import { idParams, rowAnswer } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { notFound } from '../platform/http/errors';
import { readUpload } from '../platform/http/upload';
import { checkXml } from './xml';
import type { DB } from '../platform/db/tables';

export interface ConfigParseDeps {
  db: Kysely<DB>;
  model: EntityModel;
}

export const MAX_XML_BYTES = 1024 * 1024;

/** The name as the browser sent it, without any folder part or control characters, at most 255 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(-255);
}

/** RFC 6266 attachment header: an ASCII fallback and the UTF-8 name. */
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export function registerConfigParseRoutes(fastify: FastifyInstance, { db, model }: ConfigParseDeps): void {
  const app = typed(fastify);
  const labels = model.labelPrefix;
  const path = '/api/vehicle/configParseFile/:id/file';

  app.post(
    path,
    {
      config: { permission: 'configParseFile-edit', labels },
      schema: {
        tags: ['configParseFile'],
        summary: 'upload the XML of a configuration parse file (multipart, one .xml file, 1 MB at most)',
        params: idParams,
        response: { 200: rowAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const found = await sql`SELECT 1 FROM config_parse_file t WHERE t.id = ${id} AND ${scopeCondition(model, caller)}`.execute(db);
      if (!found.rows.length) throw notFound();
      const upload = await readUpload(req, {
        maxBytes: MAX_XML_BYTES,
        extensions: ['.xml'],
        missingKey: 'upload.required',
        wrongTypeKey: 'upload.onlyXml',
      });
      checkXml(upload.data);
      const sha256 = crypto.createHash('sha256').update(upload.data).digest('hex');
      await db.transaction().execute(async (trx) => {
        await sql`
        INSERT INTO config_parse_content (file_id, content, sha256) VALUES (${id}, ${upload.data}, ${sha256})
        ON CONFLICT (file_id) DO UPDATE SET content = excluded.content, sha256 = excluded.sha256, uploaded_at = now()`.execute(trx);
        await sql`
        UPDATE config_parse_file SET file_name = ${cleanFileName(upload.filename)}, file_size = ${upload.data.length},
          latest_operator = ${caller.name}, latest_operated_at = now(), updated_at = now()
        WHERE id = ${id}`.execute(trx);
      });
      return getOne(db, model, caller, id);
    },
  );

  app.get(
    path,
    {
      config: { permission: NONE },
      schema: {
        tags: ['configParseFile'],
        summary: 'download the XML of a configuration parse file',
        params: idParams,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const r = await sql<{ content: Buffer; fileName: string | null }>`
      SELECT c.content, t.file_name AS "fileName" FROM config_parse_file t JOIN config_parse_content c ON c.file_id = t.id
      WHERE t.id = ${id} AND ${scopeCondition(model, caller)}`.execute(db);
      const row = r.rows[0];
      if (!row) throw notFound();
      return reply
        .header('content-type', 'application/xml')
        .header('content-disposition', attachment(row.fileName || `config-${id}.xml`))
        .header('cache-control', 'no-store')
        .send(Buffer.from(row.content));
    },
  );
}
