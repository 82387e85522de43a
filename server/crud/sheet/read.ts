import { Readable } from 'node:stream';
import ExcelJS, { type CellValue } from 'exceljs';
import { AppError } from '../../http/errors';
import { cellIn } from './columns';

/** Rows one import may carry: enough for a fleet, small enough to validate in one request. */
export const MAX_IMPORT_ROWS = 10_000;

export interface SheetRows {
  headers: string[];
  /** Data rows with their spreadsheet row number (the header is row 1); blank rows are skipped. */
  rows: Array<{ row: number; cells: unknown[] }>;
}

/**
 * The first worksheet of an uploaded xlsx, read as a stream (never the whole workbook object) and
 * abandoned as soon as it exceeds MAX_IMPORT_ROWS, so a huge or inflated file cannot exhaust memory.
 */
export async function readSheet(file: Buffer): Promise<SheetRows> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  const out: SheetRows = { headers: [], rows: [] };
  try {
    for await (const ws of reader) {
      for await (const row of ws) {
        const values = (row.values as CellValue[]).slice(1).map(cellIn);
        if (row.number === 1) {
          out.headers = values.map((v) => (v === undefined ? '' : String(v)));
          continue;
        }
        if (values.every((v) => v === undefined)) continue;
        if (out.rows.length >= MAX_IMPORT_ROWS) throw new AppError(400, 'sheet.tooManyRows', { limit: MAX_IMPORT_ROWS });
        out.rows.push({ row: row.number, cells: values });
      }
      break; // only the first worksheet
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError(400, 'sheet.unreadable');
  }
  if (!out.headers.length) throw new AppError(400, 'sheet.unreadable');
  if (!out.rows.length) throw new AppError(400, 'sheet.empty');
  return out;
}
