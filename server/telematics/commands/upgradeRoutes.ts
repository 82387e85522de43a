/**
 * Remote upgrade (JT/T 808 0x8108 / 0x0108), code `terminal-upgrade`:
 *   POST /api/vehicle/upgradePackage?upgradeType&makerId&version  upload a package (multipart, one
 *        file of at most 8 MB), kept in the database for the caller's organisation
 *   GET  /api/vehicle/upgradePackage                 the packages of the caller's subtree
 *   POST /api/vehicle/terminal/{id}/command/upgrade  send one to a terminal: 0x8108 in packages of
 *        1023 bytes, each acknowledged by the terminal; its 0x0108 result ends the command
 *   GET  /api/vehicle/upgradePackage/{id}/results    each terminal it was sent to and its result
 * Each upload and send is audited. With several gateway processes the package reaches the worker
 * holding the terminal by its SHA-256, and the worker reads it from here (commands/upgradeBytes.ts).
 */

import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { auditRequest } from '../../platform/audit';
import { callerOf } from '../../platform/auth/authenticate';
import type { DB } from '../../platform/db/tables';
import { AppError, invalid, refNotFound } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { readUpload } from '../../platform/http/upload';
import { orgUnder, pathUnder } from '../../platform/scope';
import { terminalById } from '../gateway/terminals';
import { MsgId } from '../jt808/codec';
import { scopedTerminal, terminalParams } from './routes';
import type { CommandService } from './service';

export const UPGRADE_PERMISSION = 'terminal-upgrade';
const LABELS = 'telematics.fields';
/** Largest package: about 8,200 packets of 1023 bytes. */
export const MAX_PACKAGE_BYTES = 8 * 1024 * 1024;
/** Extensions firmware files come with. */
const PACKAGE_EXTENSIONS = ['.bin', '.img', '.hex', '.pkg', '.fw', '.rom', '.zip', '.upg'];
/** Sending thousands of packets and flashing them takes minutes; then the command times out. */
export const UPGRADE_TIMEOUT_MS = 10 * 60_000;
const MAX_WAIT_MS = 15_000;

const uploadQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['upgradeType', 'makerId', 'version'],
  properties: {
    // 0 terminal, 12 road-transport IC card reader, 52 GNSS module.
    upgradeType: { type: 'integer', enum: [0, 12, 52] },
    // BYTE[5] in 2013 (the maker's registered id).
    makerId: { type: 'string', pattern: '^[0-9A-Za-z]{1,5}$' },
    // Written as BYTE length + GBK: plain version text.
    version: { type: 'string', pattern: '^[0-9A-Za-z._+ -]{1,64}$' },
  },
} as const;

export interface UpgradePackageView {
  id: number;
  fileName: string;
  upgradeType: number;
  makerId: string;
  version: string;
  size: number;
  sha256: string;
  createdAt: string;
}

const PACKAGE_COLUMNS = ['id', 'file_name', 'upgrade_type', 'maker_id', 'version', 'size', 'sha256', 'created_at'] as const;

function viewOf(r: {
  id: number;
  file_name: string;
  upgrade_type: number;
  maker_id: string;
  version: string;
  size: number;
  sha256: string;
  created_at: Date;
}): UpgradePackageView {
  return {
    id: r.id,
    fileName: r.file_name,
    upgradeType: r.upgrade_type,
    makerId: r.maker_id,
    version: r.version,
    size: r.size,
    sha256: r.sha256,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** The name a person gave the file, without a path or control characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(-255);
}

export function registerUpgradeRoutes(fastify: FastifyInstance, db: Kysely<DB>, commands: CommandService | null): void {
  const app = typed(fastify);
  app.post(
    '/api/vehicle/upgradePackage',
    {
      config: { permission: UPGRADE_PERMISSION, labels: LABELS },
      schema: {
        tags: ['telematics'],
        summary: 'upload a remote upgrade package (multipart, one file of at most 8 MB)',
        querystring: uploadQuery,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const q = req.query;
      const upload = await readUpload(req, {
        maxBytes: MAX_PACKAGE_BYTES,
        extensions: PACKAGE_EXTENSIONS,
        missingKey: 'upload.required',
        wrongTypeKey: 'telematics.upgradeFileType',
      });
      if (!upload.data.length) throw new AppError(400, 'telematics.upgradeEmpty');
      const sha256 = crypto.createHash('sha256').update(upload.data).digest('hex');
      const row = await db
        .insertInto('upgrade_package')
        .values({
          org_id: caller.orgId,
          file_name: cleanName(upload.filename),
          upgrade_type: q.upgradeType,
          maker_id: q.makerId,
          version: q.version,
          size: upload.data.length,
          sha256,
          content: upload.data,
          member_id: caller.memberId,
        })
        .returning(PACKAGE_COLUMNS)
        .executeTakeFirstOrThrow();
      await auditRequest(db, req, caller, 'upgradePackageUpload', `upgradePackage:${row.id}`, {
        version: q.version,
        size: row.size,
        sha256,
      });
      reply.code(201);
      return viewOf(row);
    },
  );

  app.get(
    '/api/vehicle/upgradePackage',
    {
      config: { permission: UPGRADE_PERMISSION },
      schema: { tags: ['telematics'], summary: 'the upgrade packages of the caller’s subtree' },
    },
    async (req) => {
      const rows = await db
        .selectFrom('upgrade_package')
        .select(PACKAGE_COLUMNS)
        .where(orgUnder('org_id', callerOf(req).orgPath))
        .orderBy('id', 'desc')
        .limit(200)
        .execute();
      return rows.map(viewOf);
    },
  );

  app.get(
    '/api/vehicle/upgradePackage/:id/results',
    {
      config: { permission: UPGRADE_PERMISSION },
      schema: { tags: ['telematics'], summary: 'each terminal a package was sent to, and its result', params: terminalParams },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const pkg = await db
        .selectFrom('upgrade_package')
        .select('id')
        .where('id', '=', id)
        .where(orgUnder('org_id', caller.orgPath))
        .executeTakeFirst();
      if (!pkg) throw new AppError(404, 'error.notFound');
      const rows = await sql<{
        id: number;
        terminal_id: number;
        terminal_no: string;
        status: string;
        result: number | null;
        response: unknown;
        created_at: Date;
        answered_at: Date | null;
      }>`
        SELECT c.id, c.terminal_id, t.terminal_no, c.status, c.result, c.response, c.created_at, c.answered_at
        FROM terminal_command c JOIN terminal t ON t.id = c.terminal_id JOIN organisation o ON o.id = t.org_id
        WHERE c.kind = 'upgrade' AND (c.request->>'packageId')::int = ${id} AND ${pathUnder('o.path', caller.orgPath)}
        ORDER BY c.id DESC LIMIT 1000`.execute(db);
      return rows.rows.map((r) => ({
        commandId: r.id,
        terminalId: r.terminal_id,
        terminalNo: r.terminal_no,
        status: r.status,
        ...(r.result === null ? {} : { result: r.result }),
        ...(r.response === null ? {} : { response: typeof r.response === 'string' ? (JSON.parse(r.response) as unknown) : r.response }),
        createdAt: new Date(r.created_at).toISOString(),
        ...(r.answered_at ? { answeredAt: new Date(r.answered_at).toISOString() } : {}),
      }));
    },
  );

  app.post(
    '/api/vehicle/terminal/:id/command/upgrade',
    {
      config: { permission: UPGRADE_PERMISSION, labels: LABELS },
      schema: {
        tags: ['telematics'],
        summary: 'send an upgrade package to a terminal (0x8108 in packages; its 0x0108 result ends the command)',
        params: terminalParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['packageId'],
          properties: {
            packageId: { type: 'integer', minimum: 1, maximum: 2147483647 },
            waitMs: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS },
          },
        },
      },
    },
    async (req) => {
      const terminalId = await scopedTerminal(db, req);
      const caller = callerOf(req);
      const { packageId, waitMs } = req.body;
      const pkg = await db
        .selectFrom('upgrade_package')
        .select(['upgrade_type', 'maker_id', 'version', 'content'])
        .where('id', '=', packageId)
        .where(orgUnder('org_id', caller.orgPath))
        .executeTakeFirst();
      if (!pkg) throw invalid([refNotFound('packageId', LABELS)]);
      const message = {
        msgId: MsgId.UpgradePackage,
        body: { type: pkg.upgrade_type, makerId: pkg.maker_id, version: pkg.version, data: Buffer.from(pkg.content) },
      };
      const request = { packageId, version: pkg.version };
      const sent = await commands?.send(terminalId, 'upgrade', message, request, caller.memberId, waitMs ?? 0, UPGRADE_TIMEOUT_MS);
      const terminalNo = (await terminalById(db, terminalId))?.terminalNo;
      await auditRequest(db, req, caller, 'terminalCommand', terminalNo, { kind: 'upgrade', request, commandId: sent?.id ?? null }, !!sent);
      if (!sent) throw new AppError(406, 'telematics.terminalOffline');
      return sent;
    },
  );
}
