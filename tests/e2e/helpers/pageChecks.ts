import { isDeepStrictEqual } from 'node:util';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';

/**
 * Failed API calls, page errors and console errors of a page, to be empty at the end.
 * `cancelled`: requests the test aborts on purpose (a cancelled download), which are no failure.
 */
export function watch(page: Page, cancelled: (url: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) problems.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('/api/') && !cancelled(r.url())) problems.push(`${r.method()} ${r.url()} failed: ${r.failure()?.errorText}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Opens a menu page by its path and waits for the call that loads its data. */
export async function openPage(page: Page, path: string, call: string) {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${call}`) && r.request().method() === 'POST'), page.goto(path)]);
  expect(response.status()).toBe(200);
  return response;
}

/** The rows of a downloaded xlsx, each as its cell values (empty rows kept, as the file has them). */
export async function sheetRows(path: string): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = wb.worksheets[0];
  return Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
}

/**
 * Runs `act` between two equal reads of live data (the demo fleet keeps reporting, so a figure may
 * move while a file is made): tried again while the reads differ, answering the steady read and
 * what `act` answered. After five moving tries it answers the last, for the test to fail on.
 */
export async function steadily<T, R>(read: () => Promise<T>, act: () => Promise<R>): Promise<[T, R]> {
  for (let tries = 1; ; tries++) {
    const before = await read();
    const result = await act();
    const after = await read();
    if (isDeepStrictEqual(before, after) || tries === 5) return [after, result];
  }
}
