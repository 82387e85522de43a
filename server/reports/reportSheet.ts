/**
 * The xlsx of a report table: the console's own columns (schemas/kit/reportColumns) in the caller's
 * language and time zone, so the file holds exactly what the page shows.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translator } from '../../schemas/kit/catalogue';
import { cellText, type ReportColumn } from '../../schemas/kit/reportColumns';
import { NONE } from '../platform/auth/caller';
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

/**
 * Writes the report's rows as xlsx, its progress under the caller's id (rows written of all), and
 * stops once the member cancels or the client goes away.
 */
export async function sendReportSheet<R>(
  req: FastifyRequest,
  reply: FastifyReply,
  titleKey: string,
  columns: ReadonlyArray<ReportColumn<R>>,
  rows: readonly R[],
): Promise<FastifyReply> {
  const progress = trackRequest(req, reply, 'write');
  progress.phase('write', rows.length);
  const t = translator(requestLanguage(req));
  const zone = requestTimeZone(req);
  const title = t(titleKey);
  const sheet = tableWorkbook(
    title,
    columns.map((c) => t(c.labelKey)),
  );
  await addRows(progress, rows, 0, (r) => sheet.addRow(columns.map((c) => cellText(c, r, t, (iso) => formatInZone(new Date(iso), zone)))));
  const { criteria } = (req.body ?? {}) as { criteria?: { begin?: string; end?: string } };
  const name = criteria?.begin ? `${title} ${criteria.begin}_${criteria.end}` : title;
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', attachment(name))
    .send(await sheet.buffer());
}

/** `POST <path>/export`: the same body as the report route, its rows (as `rowsOf` reads them) as xlsx. */
export function reportExportRoute<R>(
  app: FastifyInstance,
  path: string,
  opts: { labels: string; tag: string; body: Record<string, unknown>; titleKey: string; columns: ReadonlyArray<ReportColumn<R>> },
  rowsOf: (req: FastifyRequest) => Promise<readonly R[]>,
): void {
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
    async (req, reply) => sendReportSheet(req, reply, opts.titleKey, opts.columns, await rowsOf(req)),
  );
}
