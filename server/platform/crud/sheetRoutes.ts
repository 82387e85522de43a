import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Kysely } from 'kysely';
import { permissionOf, WRITE_OPERATIONS, type SheetOperation } from '../../../schemas/kit/entity';
import type { Translate } from '../../../schemas/kit/i18n';
import { callerOf } from '../auth/authenticate';
import { requestTranslator } from '../labelOverrides';
import { readUpload } from '../http/upload';
import type { Caller } from '../auth/caller';
import { trackRequest, progressHeaders } from '../progress/track';
import type { Progress } from '../progress/board';
import { exportCount, keysetBatches, type ExportBody } from './keyset';
import type { EntityModel } from './model';
import { parseRoute } from './routeSpec';
import { typed } from '../http/typed';
import { exportColumns, importColumns, readOnlyColumns, renewColumns } from './sheet/columns';
import { templateColumns } from './sheet/choices';
import { importGate } from './sheet/importGate';
import { requestTimeZone } from './sheet/timeZone';
import { readSheet, type SheetRows } from './sheet/read';
import { insertRows, renewRows, updateRows } from './sheet/store';
import { mergedOver } from './sheet/changes';
import { sheetDoneSchema, sheetReportSchema, type RowPlan, type SheetDone, type SheetReport } from '../../../schemas/kit/sheetReport';
import type { BodyCheck, WriteWatch } from './routes';
import { checkImportRows, checkRenewRows, type CheckedRows } from './sheet/validate';
import { attachment, streamWorkbook, templateBuffer, XLSX_TYPE } from './sheet/workbook';
import type { DB } from '../db/tables';

/** Rows fetched per export query: big enough to amortise the round trip, small enough to stay flat. */
export const EXPORT_BATCH = 2000;
export const XLSX_UPLOAD = {
  maxBytes: 5 * 1024 * 1024,
  extensions: ['.xlsx', '.csv'],
  missingKey: 'sheet.noFile',
  wrongTypeKey: 'sheet.notXlsx',
};

/** Most rows an export may name by id: a page on screen (the console's largest page is far smaller). */
export const EXPORT_MAX_IDS = 1000;

/**
 * The export body: the list's query body, plus `ids` to export only those of its rows (the console's
 * "current page" mode; the list's criteria still apply, so ids outside them or the caller's scope
 * export nothing).
 */
export function exportBodySchema(m: EntityModel): Record<string, unknown> {
  const q = m.querySchema as { properties: Record<string, unknown> };
  const ids = {
    type: ['array', 'null'],
    maxItems: EXPORT_MAX_IDS,
    items: { type: 'integer', minimum: 1, maximum: 2147483647 },
    'x-messages': { maxItems: 'sheet.tooManyIds' },
  };
  return { ...q, properties: { ...q.properties, ids } };
}

/** How many valid rows of an import create, update and leave unchanged a record. */
export function planCounts(plan: RowPlan[]): { created: number; updated: number; unchanged: number } {
  const n = (a: RowPlan['action']) => plan.filter((p) => p.action === a).length;
  return { created: n('create'), updated: n('update'), unchanged: n('unchanged') };
}

/**
 * What importValidate answers (and import with a 400): the rows' errors in the caller's language,
 * and for an import what each valid row will do.
 */
export const sheetReport = (c: CheckedRows, t: Translate): SheetReport => {
  const total = c.plan ? c.plan.length + c.errors.length : c.bodies.length;
  return {
    success: !c.errors.length,
    message: c.errors.length ? t('sheet.invalidRows', { count: c.errors.length }) : t('sheet.valid', { count: total }),
    total,
    invalid: c.errors.length,
    rows: c.errors,
    ...(c.plan ? { ...planCounts(c.plan), plan: c.plan } : {}),
  };
};

/** What a stored import answers: a file of new rows says so as before; one that updated says how many of each. */
export function importDone(c: CheckedRows, t: Translate): SheetDone {
  const counts = planCounts(c.plan ?? []);
  const total = c.plan?.length ?? c.bodies.length;
  const message = counts.updated || counts.unchanged ? t('sheet.importedUpdated', counts) : t('sheet.imported', { count: counts.created });
  return { success: true, message, total, ...counts };
}

/**
 * Runs an upload's read, check and store inside the server's import gate: one crafted file could
 * hold hundreds of MB, so a member gets one import at a time and the server a few.
 */
export const gatedImport =
  (db: object) =>
  <T>(req: FastifyRequest, job: () => Promise<T>): Promise<T> =>
    importGate(db).run(callerOf(req).memberId, job);

/**
 * Streams an export of `body` for `caller` as the response, its progress under the caller's id:
 * the rows in all (counted first), then rows written after each batch; a cancel or a client that
 * goes away stops the writing.
 */
export async function sendExport(
  db: Kysely<DB>,
  req: FastifyRequest,
  reply: FastifyReply,
  m: EntityModel,
  caller: Caller,
  body: ExportBody,
  title: string,
): Promise<FastifyReply> {
  const progress = trackRequest(req, reply, 'write');
  progress.phase('write', await exportCount(db, m, caller, body));
  const out = new PassThrough();
  const batches = keysetBatches(db, m, caller, body, EXPORT_BATCH);
  streamWorkbook(out, m, exportColumns(m), requestTranslator(req), batches, requestTimeZone(req), progress).catch((err: Error) => {
    // Headers are gone by now: the client sees a truncated download, the log says why.
    req.log.warn({ err }, 'export stopped');
    out.destroy(err);
  });
  return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(title)).send(out);
}

/** The rows of an uploaded file checked (phase `check`: all of them once done), then a cancel honoured. */
export async function checkedWithProgress(
  progress: Progress,
  read: () => Promise<SheetRows>,
  check: (sheet: SheetRows) => Promise<CheckedRows>,
): Promise<CheckedRows> {
  const sheet = await read();
  progress.check();
  progress.phase('check', sheet.rows.length);
  const c = await check(sheet);
  progress.done(sheet.rows.length);
  progress.check();
  return c;
}

const templateQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { kind: { enum: ['import', 'renew'], default: 'import' } },
} as const;

/**
 * SPEC §9 for any entity whose schema declares the routes: export (all rows matching the list's
 * criteria, streamed), the import template, import and renewal, each validated first, all or nothing.
 */
export function registerSheetRoutes(app: FastifyInstance, db: Kysely<DB>, m: EntityModel, bodyCheck?: BodyCheck, watch?: WriteWatch): void {
  const x = m.schema['x-entity'];
  /** Where and how an operation is served: its paths, permission and labels, and its schema's common part. */
  const routesOf = (op: SheetOperation) =>
    (x.routes[op] ?? []).map((r) => {
      const [method, url] = parseRoute(r);
      return {
        method: method as HTTPMethods,
        url,
        config: { permission: permissionOf(x, op), labels: m.labelPrefix, sharedWrite: !!x.shared && WRITE_OPERATIONS.has(op) },
        schema: { tags: [m.name], summary: `${op} ${m.name}` },
      };
    });
  const each = (
    op: SheetOperation,
    schema: Record<string, unknown>,
    handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    for (const r of routesOf(op)) app.route({ ...r, schema: { ...r.schema, ...schema }, handler });
  };
  const t = (req: FastifyRequest) => requestTranslator(req);
  const title = (req: FastifyRequest) => t(req)(`entity.${m.name}.title`);

  const exportBody = exportBodySchema(m);
  for (const r of routesOf('export'))
    // The body's schema is built from the entity at start: its type is said here.
    typed(app).route<{ Body: ExportBody | null }>({
      ...r,
      schema: { ...r.schema, body: exportBody, headers: progressHeaders },
      handler: async (req, reply) => sendExport(db, req, reply, m, callerOf(req), req.body ?? {}, title(req)),
    });

  for (const r of routesOf('template'))
    typed(app).route({
      ...r,
      schema: { ...r.schema, querystring: templateQuery },
      handler: async (req, reply) => {
        const renew = req.query.kind === 'renew' && x.renew;
        const cols = await templateColumns(db, m, callerOf(req), renew ? renewColumns(m) : importColumns(m), t(req), !!renew);
        return reply
          .header('content-type', XLSX_TYPE)
          .header('content-disposition', attachment(title(req)))
          .send(await templateBuffer(cols, t(req)));
      },
    });

  type Check = typeof checkImportRows;
  const checked = (req: FastifyRequest, progress: Progress, check: Check, renew: boolean): Promise<CheckedRows> =>
    checkedWithProgress(
      progress,
      async () => {
        const upload = await readUpload(req, XLSX_UPLOAD);
        return readSheet(upload.data, upload.filename);
      },
      (sheet) =>
        check(
          db,
          m,
          callerOf(req),
          sheet,
          renew ? renewColumns(m) : importColumns(m),
          t(req),
          readOnlyColumns(m),
          requestTimeZone(req),
          bodyCheck,
        ),
    );
  const report = (req: FastifyRequest, c: CheckedRows) => sheetReport(c, t(req));
  const gated = gatedImport(db);
  const validateRoute = (check: Check, renew: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const progress = trackRequest(req, reply, 'read');
    return gated(req, async () => report(req, await checked(req, progress, check, renew)));
  };
  const applyRoute = (check: Check, renew: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const progress = trackRequest(req, reply, 'read');
    return gated(req, async () => {
      const c = await checked(req, progress, check, renew);
      if (c.errors.length) return reply.status(400).send({ ...report(req, c), code: 'sheet.invalidRows' });
      const caller = callerOf(req);
      const bodies = c.bodies.map((b) => b.body);
      const updates = c.updates ?? [];
      progress.phase('store', bodies.length + updates.length);
      // All or nothing: a cancel before the last statement throws inside the transaction, which rolls back.
      await db.transaction().execute(async (trx) => {
        if (renew) await renewRows(trx, m, caller, bodies, progress);
        else {
          await insertRows(trx, m, caller, bodies, progress);
          await updateRows(trx, m, caller, updates, progress, bodies.length);
        }
        progress.done(bodies.length + updates.length);
        progress.finish();
      });
      if (renew) {
        // Renewal writes only the renewed fields (dates).
        return reply.status(200).send({ success: true, message: t(req)('sheet.renewed', { count: bodies.length }), total: bodies.length });
      }
      await watch?.([
        ...bodies.map((after) => ({ after })),
        ...updates.map((u) => ({ before: u.before, after: mergedOver(u.before, u.changes) })),
      ]);
      return reply.status(201).send(importDone(c, t(req)));
    });
  };
  const upload = { headers: progressHeaders };
  const checkedAnswer = { ...upload, response: { 200: sheetReportSchema } };
  each('importValidate', checkedAnswer, validateRoute(checkImportRows, false));
  each('import', { ...upload, response: { 201: sheetDoneSchema } }, applyRoute(checkImportRows, false));
  if (x.renew) {
    each('renewValidate', checkedAnswer, validateRoute(checkRenewRows, true));
    each('renew', { ...upload, response: { 200: sheetDoneSchema } }, applyRoute(checkRenewRows, true));
  }
}
