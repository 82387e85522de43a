/**
 * The xlsx of a report table: the console's own columns (schemas/kit/reportColumns) in the caller's
 * language and time zone, so the file holds exactly what the page shows. The same makers write a
 * scheduled report's attachment (server/reportMail) for the schedule's organisation and language.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translator } from '../../schemas/kit/catalogue';
import { cellText, type ReportColumn } from '../../schemas/kit/reportColumns';
import type { Language } from '../../schemas/kit/i18n';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { attachment, tableWorkbook, XLSX_TYPE } from '../platform/crud/sheet/workbook';
import { formatInZone, requestTimeZone } from '../platform/crud/sheet/timeZone';
import { requestLanguage } from '../platform/http/language';
import type { Progress } from '../platform/progress/board';
import { progressHeaders, trackRequest } from '../platform/progress/track';

/** Rows written between two progress reports (and cancel checks) of a report's xlsx. */
const PROGRESS_STEP = 1000;

/**
 * Adds rows to a sheet, reporting the rows written (`before` already were) every PROGRESS_STEP and
 * letting progress reads and a cancel in between; throws once cancelled.
 */
export async function addRows<R>(progress: Progress, rows: readonly R[], before: number, add: (r: R) => void): Promise<void> {
  for (const [i, r] of rows.entries()) {
    add(r);
    if ((i + 1) % PROGRESS_STEP) continue;
    progress.done(before + i + 1);
    await new Promise((resolve) => setImmediate(resolve));
    progress.check();
  }
  progress.done(before + rows.length);
}

/** What a report's xlsx is written for: whose scope reads the rows, the words' language, the zone of its times, its progress. */
export interface SheetContext {
  caller: Caller;
  language: Language;
  zone: string;
  progress: Progress;
}

/** A report's xlsx: its title in the sheet's language and the file. */
export interface ReportWorkbook {
  title: string;
  buffer: Buffer;
}

/**
 * A report table as xlsx: its title, its columns and how its rows are read for a caller from the
 * report route's body (`{criteria: …}`); the export route and a scheduled report's mail both write it.
 */
export interface ReportSheet<R> {
  titleKey: string;
  columns: ReadonlyArray<ReportColumn<R>>;
  rows(caller: Caller, body: unknown): Promise<readonly R[]>;
}

/** Makes a report's xlsx for a context from the report route's body: what an export route answers and a scheduled report attaches. */
export type SheetMaker = (ctx: SheetContext, body: unknown) => Promise<ReportWorkbook>;

/** Writes rows as xlsx with the console's columns in the context's language and zone, reporting rows written. */
export async function reportWorkbook<R>(
  ctx: SheetContext,
  titleKey: string,
  columns: ReadonlyArray<ReportColumn<R>>,
  rows: readonly R[],
): Promise<ReportWorkbook> {
  ctx.progress.phase('write', rows.length);
  const t = translator(ctx.language);
  const title = t(titleKey);
  const sheet = tableWorkbook(
    title,
    columns.map((c) => t(c.labelKey)),
  );
  await addRows(ctx.progress, rows, 0, (r) =>
    sheet.addRow(columns.map((c) => cellText(c, r, t, (iso) => formatInZone(new Date(iso), ctx.zone)))),
  );
  return { title, buffer: await sheet.buffer() };
}

/** The maker of a report sheet's xlsx. */
export const sheetMaker =
  <R>(sheet: ReportSheet<R>): SheetMaker =>
  async (ctx, body) =>
    reportWorkbook(ctx, sheet.titleKey, sheet.columns, await sheet.rows(ctx.caller, body));

/** The context of an export request: the caller, Accept-Language, X-Time-Zone and the progress it follows. */
export function requestSheetContext(req: FastifyRequest, reply: FastifyReply): SheetContext {
  return { caller: callerOf(req), language: requestLanguage(req), zone: requestTimeZone(req), progress: trackRequest(req, reply, 'write') };
}

/** The body's `criteria.begin` and `.end` when it has them (the route's schema checked the body; its type is the route's). */
function rangeOf(body: unknown): { begin: string; end: string } | null {
  const c = body && typeof body === 'object' && 'criteria' in body ? body.criteria : null;
  return c && typeof c === 'object' && 'begin' in c && 'end' in c && typeof c.begin === 'string' && typeof c.end === 'string'
    ? { begin: c.begin, end: c.end }
    : null;
}

/**
 * Answers a report's xlsx made for the request's caller (its progress under the caller's id, rows
 * written of all; stopped once the member cancels or the client goes away), named by its title and
 * the body's range when it has one.
 */
export async function sendReportSheet(req: FastifyRequest, reply: FastifyReply, make: SheetMaker): Promise<FastifyReply> {
  const { title, buffer } = await make(requestSheetContext(req, reply), req.body);
  const range = rangeOf(req.body);
  const name = range ? `${title} ${range.begin}_${range.end}` : title;
  return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(name)).send(buffer);
}

/** `POST <path>/export`: the same body as the report route, the sheet's rows as xlsx. */
export function reportExportRoute<R>(
  app: FastifyInstance,
  path: string,
  opts: { labels: string; tag: string; body: Record<string, unknown> },
  sheet: ReportSheet<R>,
): void {
  const make = sheetMaker(sheet);
  app.post(
    `${path}/export`,
    {
      config: { permission: NONE, labels: opts.labels },
      schema: {
        tags: [opts.tag],
        summary: 'the same rows as xlsx, in the columns the console shows',
        body: opts.body,
        headers: progressHeaders,
      },
    },
    async (req, reply) => sendReportSheet(req, reply, make),
  );
}
