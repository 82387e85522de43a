import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Translate } from '../../../../schemas/kit/i18n';
import type { EntityModel } from '../model';
import type { Progress } from '../../progress/board';
import { cellOut, type SheetColumn } from './columns';
import { neutralise } from './formulaText';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `attachment` with the localised file name (RFC 5987), ASCII fallback for old clients. */
export const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}.xlsx`;

const width = (header: string, min = 10) => Math.min(40, Math.max(min, header.length * 2 + 2));

/**
 * Cell values as every xlsx of ours writes them (entity exports, templates, report tables): text
 * passes `neutralise`, so no cell anyone wrote can become a formula. Every row and cell written
 * goes through here.
 */
const safe = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? neutralise(v) : v)) as ExcelJS.CellValue[]; // values are text, numbers, dates or empty

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
 * however many rows there are. `progress` hears the rows written after each batch and stops the
 * export once cancelled.
 */
export async function streamWorkbook(
  out: Writable,
  m: EntityModel,
  cols: SheetColumn[],
  t: Translate,
  batches: AsyncIterable<Array<Record<string, unknown>>>,
  zone?: string,
  progress?: Pick<Progress, 'done' | 'check'>,
): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet(t('sheet.sheetName'));
  const headers = cols.map((c) => t(c.labelKey));
  ws.columns = headers.map((h) => ({ width: width(h) }));
  ws.addRow(safe(headers)).commit();
  let n = 0;
  for await (const batch of batches) {
    for (const row of batch) ws.addRow(safe(cols.map((c) => cellOut(m, c, row[c.key], t, zone)))).commit();
    n += batch.length;
    progress?.done(n);
    await whenWritable(out);
    progress?.check();
  }
  ws.commit();
  await wb.commit();
  return n;
}

/** exceljs supports range-wide validations (one XML element for 10,000 rows) but its types omit them. */
const rangeValidations = (ws: ExcelJS.Worksheet) =>
  (ws as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }).dataValidations;

/** What a template column accepts, for its dropdown and its hint. */
export interface TemplateColumn {
  col: SheetColumn;
  required: boolean;
  /** Allowed values as the user writes them (enum labels, yes/no, labels of visible rows); absent: free input. */
  choices?: string[];
}

/** Data rows a template's dropdowns cover (the import's row limit, after the header and hint rows). */
const VALIDATED_ROWS = 10_000;

const colName = (n: number): string => (n <= 0 ? '' : colName(Math.floor((n - 1) / 26)) + String.fromCharCode(65 + ((n - 1) % 26)));

function hint(c: TemplateColumn, t: Translate): string {
  const s = c.col.schema;
  const parts = [t(c.required ? 'sheet.hint.required' : 'sheet.hint.optional')];
  if (c.choices) parts.push(t('sheet.hint.choose'));
  else if (s.format === 'date') parts.push(t('sheet.hint.date'));
  else if (s.format === 'date-time') parts.push(t('sheet.hint.dateTime'));
  else if (
    s.type === 'number' ||
    s.type === 'integer' ||
    (Array.isArray(s.type) && (s.type.includes('number') || s.type.includes('integer')))
  )
    parts.push(t('sheet.hint.number', { min: s.minimum ?? '-', max: s.maximum ?? '-' }));
  else if (s.maxLength) parts.push(t('sheet.hint.maxLength', { limit: s.maxLength }));
  return parts.join(t('sheet.hint.separator'));
}

/**
 * The import template: localised headers, a hint row (required or not, what to write; its first
 * cell starts with the hint marker, so an import skips it), and a dropdown on every column with a
 * fixed set of values (enums, yes/no, relations by the labels the caller may use), fed from a
 * hidden sheet so long lists fit.
 */
export async function templateBuffer(columns: TemplateColumn[], t: Translate): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(t('sheet.sheetName'));
  const lists = wb.addWorksheet('lists', { state: 'veryHidden' });
  const headers = columns.map((c) => t(c.col.labelKey));
  ws.columns = headers.map((h) => ({ width: width(h) + 6 }));
  ws.addRow(safe(headers)).font = { bold: true };
  const hints = columns.map((c, i) => (i === 0 ? `${t('sheet.hint.marker')}${hint(c, t)}` : hint(c, t)));
  const hintRow = ws.addRow(safe(hints));
  hintRow.font = { italic: true, color: { argb: 'FF8C8C8C' } };
  hintRow.alignment = { wrapText: true, vertical: 'top' };
  let listCol = 0;
  columns.forEach((c, i) => {
    const letter = colName(i + 1);
    // Text format keeps SIM and terminal numbers from turning into numbers in Excel.
    if (!c.col.schema.enum && (c.col.schema.type === 'string' || c.col.ref)) ws.getColumn(i + 1).numFmt = '@';
    if (!c.choices?.length) return;
    listCol++;
    const l = colName(listCol);
    c.choices.forEach((v, r) => (lists.getCell(`${l}${r + 1}`).value = safe([v])[0]));
    rangeValidations(ws).add(`${letter}3:${letter}${VALIDATED_ROWS + 2}`, {
      type: 'list',
      allowBlank: !c.required,
      formulae: [`lists!$${l}$1:$${l}$${c.choices.length}`],
      showErrorMessage: true,
      errorStyle: 'warning',
      error: t('sheet.hint.notInList'),
    });
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A table being written: rows (a bold one for totals) and, at the end, the file. */
export interface TableWorkbook {
  addRow(values: readonly unknown[], bold?: boolean): void;
  buffer(): Promise<Buffer>;
}

/**
 * A one-sheet xlsx built in memory (report, alarm and ledger exports): bold headers, column widths
 * from them, every cell through the same rule as the other xlsx of ours.
 */
export function tableWorkbook(sheetName: string, headers: string[]): TableWorkbook {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName.slice(0, 31)); // Excel's longest sheet name
  ws.columns = headers.map((h) => ({ width: width(h, 12) }));
  ws.addRow(safe(headers)).font = { bold: true };
  return {
    addRow(values, bold = false) {
      const row = ws.addRow(safe(values));
      if (bold) row.font = { bold: true };
    },
    buffer: async () => Buffer.from(await wb.xlsx.writeBuffer()),
  };
}
