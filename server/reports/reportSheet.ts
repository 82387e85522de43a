/**
 * The xlsx of a report table: the console's own columns (schemas/kit/reportColumns) in the caller's
 * language and time zone, so the file holds exactly what the page shows.
 */

import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translator } from '../../schemas/kit/catalogue';
import { cellText, type ReportColumn } from '../../schemas/kit/reportColumns';
import { NONE } from '../platform/auth/caller';
import { attachment, XLSX_TYPE } from '../platform/crud/sheet/workbook';
import { formatInZone, requestTimeZone } from '../platform/crud/sheet/timeZone';
import { requestLanguage } from '../platform/http/language';

export async function sendReportSheet<R>(req: FastifyRequest, reply: FastifyReply, titleKey: string, columns: ReadonlyArray<ReportColumn<R>>, rows: readonly R[]): Promise<FastifyReply> {
  const t = translator(requestLanguage(req));
  const zone = requestTimeZone(req);
  const wb = new ExcelJS.Workbook();
  const title = t(titleKey);
  const ws = wb.addWorksheet(title.slice(0, 31));
  const headers = columns.map((c) => t(c.labelKey));
  ws.columns = headers.map((h) => ({ width: Math.min(40, Math.max(12, h.length * 2 + 2)) }));
  ws.addRow(headers).font = { bold: true };
  for (const r of rows) ws.addRow(columns.map((c) => cellText(c, r, t, (iso) => formatInZone(new Date(iso), zone))));
  const { criteria } = (req.body ?? {}) as { criteria?: { begin?: string; end?: string } };
  const name = criteria?.begin ? `${title} ${criteria.begin}_${criteria.end}` : title;
  return reply.header('content-type', XLSX_TYPE).header('content-disposition', attachment(name)).send(Buffer.from(await wb.xlsx.writeBuffer()));
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
    { config: { permission: NONE, labels: opts.labels }, schema: { tags: [opts.tag], summary: 'the same rows as xlsx, in the columns the console shows', body: opts.body } },
    async (req, reply) => sendReportSheet(req, reply, opts.titleKey, opts.columns, await rowsOf(req)),
  );
}
