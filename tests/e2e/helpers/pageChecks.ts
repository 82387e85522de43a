import { isDeepStrictEqual } from 'node:util';
import ExcelJS from 'exceljs';
import type { Page, Request } from 'playwright-core';

/**
 * Failed API calls, page errors and console errors of a page, to be empty at the end.
 * `cancelled`: requests the test aborts on purpose (a cancelled download), which are no failure.
 * A call still under way when the page is left (a progress read, a poll) is aborted by the browser
 * as the next page loads: the user sees nothing fail, so neither does this. That holds too for a
 * call the old page sends after the next load began (a component mounting as the user leaves):
 * until the new document commits, every call is the old page's.
 */
export function watch(page: Page, cancelled: (url: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  /** Page loads begun so far, whether one has begun and not yet committed, and the loads begun when each call was sent. */
  let loads = 0;
  let leaving = false;
  const loadsAtSend = new WeakMap<Request, number>();
  const sentLeaving = new WeakSet<Request>();
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) {
      loads += 1;
      leaving = true;
      return;
    }
    loadsAtSend.set(r, loads);
    if (leaving) sentLeaving.add(r);
  });
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) leaving = false;
  });
  const leftBehind = (r: Request) =>
    r.failure()?.errorText === 'net::ERR_ABORTED' && (sentLeaving.has(r) || (loadsAtSend.get(r) ?? loads) < loads);
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) problems.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('/api/') && !cancelled(r.url()) && !leftBehind(r))
      problems.push(`${r.method()} ${r.url()} failed: ${r.failure()?.errorText}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Opens a menu page by its path and waits for the call that loads its data. */
export async function openPage(page: Page, path: string, call: string) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${call}`) && r.request().method() === 'POST'),
    page.goto(path),
  ]);
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

/**
 * A table at a laptop's width: scrolled fully to the right, its last column ends where the fixed
 * right-hand column (the actions) begins, so nothing stays hidden under it; every header is named.
 * The layout follows a resize a frame or two late: `settle` asks again until it fits or that many
 * milliseconds pass, answering the last faults.
 */
export async function tableFits(page: Page, scope: string, settleMs = 0): Promise<string[]> {
  const end = Date.now() + settleMs;
  for (;;) {
    const faults = await tableFaultsNow(page, scope);
    if (!faults.length || Date.now() >= end) return faults;
    // The next two frames: a resize's layout lands by then.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

function tableFaultsNow(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const faults: string[] = [];
    for (const table of Array.from(document.querySelectorAll(`${sel} .ant-table`))) {
      const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
      if (!scroller) continue;
      scroller.scrollLeft = scroller.scrollWidth;
      scroller.dispatchEvent(new Event('scroll'));
      const heads = Array.from(table.querySelectorAll('thead tr:first-child > th')) as HTMLElement[];
      const right = heads.filter((h) => h.classList.contains('ant-table-cell-fix-right'));
      const moving = heads.filter(
        (h) => !h.className.includes('ant-table-cell-fix') && h.offsetWidth > 0 && !h.classList.contains('ant-table-row-expand-icon-cell'),
      );
      const last = moving.at(-1)?.getBoundingClientRect();
      const fixedLeft = right.length ? Math.min(...right.map((h) => h.getBoundingClientRect().left)) : Infinity;
      const box = scroller.getBoundingClientRect();
      if (last && last.right > Math.min(fixedLeft, box.right) + 1)
        faults.push(`${sel}: the last column ends at ${last.right}, hidden from ${Math.min(fixedLeft, box.right)}`);
      for (const h of heads)
        if (h.offsetWidth > 0 && h.offsetWidth < 24 && !h.className.includes('selection') && !h.className.includes('expand'))
          faults.push(`${sel}: a column ${h.offsetWidth}px wide: ${h.innerText}`);
      scroller.scrollLeft = 0;
    }
    return faults;
  }, scope);
}

/**
 * Waits for antd's opening animations to end: a click during a dialog's or a confirmation's zoom-in
 * can miss what it aims at, and a screenshot would show the fade-in rather than the dialog.
 */
export async function settled(page: Page): Promise<void> {
  // Two frames first: a dialog a click has just asked for has mounted and begun its motion by then.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Any antd motion, by rc-motion's class names: modals zoom, popconfirms zoom-big, dropdowns slide,
  // drawers slide their panel, masks fade.
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('[class*="-appear"], [class*="-enter"]')).every((el) =>
      Array.from(el.classList).every((c) => !/^ant-.+-(appear|enter)(-start|-active)?$/.test(c)),
    ),
  );
}
