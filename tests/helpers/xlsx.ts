import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import type { TestServer } from './testServer';

/** The content type of an .xlsx upload. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows of the first sheet of an xlsx, as the cell values a person sees. */
export async function readXlsx(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer); // exceljs types predate Node 20 generic Buffer
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** An xlsx of one sheet holding these rows, as a person would save it. */
export async function xlsxOf(rows: unknown[][], sheetName = 'Sheet1'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A file the app answers (an export, a template): status, headers and the raw bytes; `json()` reads a refusal. */
export async function downloadFrom(
  s: TestServer,
  token: string,
  method: InjectOptions['method'],
  url: string,
  body?: object,
  lang?: string,
) {
  const res = await s.app.inject({
    method,
    url,
    ...(body ? { payload: body } : {}),
    headers: { authorization: `Bearer ${token}`, ...(lang ? { 'accept-language': lang } : {}) },
  });
  return { status: res.statusCode, headers: res.headers, data: res.rawPayload, json: () => JSON.parse(res.body) };
}
