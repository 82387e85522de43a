import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Translate } from '../../../schemas/kit/i18n';
import type { EntityModel } from '../model';
import { cellOut, type SheetColumn } from './columns';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `attachment` with the localised file name (RFC 5987), ASCII fallback for old clients. */
export const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}.xlsx`;

const width = (header: string) => Math.min(40, Math.max(10, header.length * 2 + 2));

export const abortedMessage = 'export aborted: the client went away';

/**
 * Resolves once `out` takes more data, rejects once it closes or fails first (a client that goes
 * away while the export waits: `drain` alone would never come and the export would hang, holding
 * its batch). Every listener added here is removed again whichever way it ends, so a long export
 * adds none per batch.
 */
export function whenWritable(out: Writable): Promise<void> {
  if (out.destroyed || out.writableEnded) return Promise.reject(new Error(abortedMessage));
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = (err?: Error) => settle(err instanceof Error ? err : new Error(abortedMessage));
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', onClose);
  });
}

/**
 * Writes rows to `out` as an xlsx, one batch at a time: each row is committed (flushed to the zip)
 * as soon as it is added, and the next batch waits while `out` is full, so memory holds one batch
 * however many rows there are.
 */
export async function streamWorkbook(out: Writable, m: EntityModel, cols: SheetColumn[], t: Translate, batches: AsyncIterable<Array<Record<string, unknown>>>): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(t('sheet.sheetName'));
  const headers = cols.map((c) => t(c.labelKey));
  ws.columns = headers.map((h) => ({ width: width(h) }));
  ws.addRow(headers).commit();
  let n = 0;
  for await (const batch of batches) {
    for (const row of batch) ws.addRow(cols.map((c) => cellOut(m, c, row[c.key], t))).commit();
    n += batch.length;
    await whenWritable(out);
  }
  ws.commit();
  await wb.commit();
  return n;
}

/** The import template: localised headers, one example-free sheet (small, built in memory). */
export async function templateBuffer(cols: SheetColumn[], t: Translate): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(t('sheet.sheetName'));
  const headers = cols.map((c) => t(c.labelKey));
  ws.columns = headers.map((h) => ({ width: width(h) }));
  ws.addRow(headers).font = { bold: true };
  // Text format keeps SIM and terminal numbers from turning into numbers in Excel.
  cols.forEach((c, i) => {
    if (!c.schema.enum && (c.schema.type === 'string' || c.ref)) ws.getColumn(i + 1).numFmt = '@';
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
