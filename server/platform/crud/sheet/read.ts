import { Readable } from 'node:stream';
import ExcelJS, { type CellValue, type Worksheet } from 'exceljs';
import { AppError } from '../../http/errors';
import { cellIn, isHintRow } from './columns';
import { checkXlsxBounds } from './zipLimits';

/** Rows one import may carry: enough for a fleet, small enough to validate in one request. */
export const MAX_IMPORT_ROWS = 10_000;
/** Longest text a cell may hold: every field's own maximum is far below (JSON fields included). */
export const MAX_CELL_CHARS = 5_000;

export interface SheetRows {
  headers: string[];
  /** Data rows with their spreadsheet row number (the header is row 1); blank rows are skipped. */
  rows: Array<{ row: number; cells: unknown[] }>;
}

/**
 * The first worksheet of an uploaded xlsx, or the rows of an uploaded CSV (`filename` ending in
 * .csv: what a card issuer's or another system's statement often is). The zip is bounded first
 * (entry count, inflated size), then loaded whole: exceljs's streaming reader parsed a worksheet as
 * soon as the shared strings and relationships had passed, whether or not styles.xml (which number
 * formats mark a number as a date) and workbook.xml (the 1904 date system) had been read yet, and
 * it queued entries through pause/resume event timing, so the same file could read date cells as
 * plain numbers or not depending on entry order and timing. The in-memory reader reads every part
 * before any cell.
 */
export async function readSheet(file: Buffer, filename = ''): Promise<SheetRows> {
  return rowsOf(/\.csv$/i.test(filename) ? await csvSheet(file) : await xlsxSheet(file));
}

async function xlsxSheet(file: Buffer): Promise<Worksheet> {
  checkXlsxBounds(file);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(file as unknown as ArrayBuffer); // exceljs types predate Node 20 generic Buffer
  } catch {
    throw new AppError(400, 'sheet.unreadable');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new AppError(400, 'sheet.unreadable');
  return ws;
}

/**
 * A CSV's text: UTF-8 (its byte order mark dropped), else GB18030, what Excel writes a CSV in on a
 * Chinese Windows. Its cells are kept as the text they are (exceljs would read "2026-11-02" as a
 * UTC date and "007" as 7): each column's own rule reads them, as it reads text typed into an xlsx.
 */
async function csvSheet(file: Buffer): Promise<Worksheet> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    text = new TextDecoder('gb18030').decode(file);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) throw new AppError(400, 'sheet.unreadable');
  const wb = new ExcelJS.Workbook();
  try {
    return await wb.csv.read(Readable.from([text]), { map: (value: unknown) => value });
  } catch {
    throw new AppError(400, 'sheet.unreadable');
  }
}

function rowsOf(ws: Worksheet): SheetRows {
  const out: SheetRows = { headers: [], rows: [] };
  ws.eachRow((row) => {
    const values = (row.values as CellValue[]).slice(1).map((v, i) => {
      const value = cellIn(v);
      if (typeof value === 'string' && value.length > MAX_CELL_CHARS)
        throw new AppError(400, 'sheet.cellTooLong', { cell: row.getCell(i + 1).address, limit: MAX_CELL_CHARS });
      return value;
    });
    if (row.number === 1) {
      out.headers = values.map((v) => (v === undefined ? '' : String(v)));
      return;
    }
    if (row.number === 2 && isHintRow(values)) return;
    if (values.every((v) => v === undefined)) return;
    if (out.rows.length >= MAX_IMPORT_ROWS) throw new AppError(400, 'sheet.tooManyRows', { limit: MAX_IMPORT_ROWS });
    out.rows.push({ row: row.number, cells: values });
  });
  if (!out.headers.length) throw new AppError(400, 'sheet.unreadable');
  if (!out.rows.length) throw new AppError(400, 'sheet.empty');
  return out;
}
