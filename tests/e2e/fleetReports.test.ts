import type { Page } from 'playwright-core';
import { dayOf, quickRange } from '../../src/components/statistics/statsCriteria';
import { overspeedEverywhere } from './helpers/alarms';
import { screenshot, useConsoleSuite } from './helpers/console';
import { openPage, sheetRows, steadily, tableFits, watch } from './helpers/pageChecks';

/** A download the test cancels on purpose is no failure. */
const cancelledExport = (url: string) => url.endsWith('/export');

/**
 * The health, safety and team monitoring pages, the dashboard's health bands and the static
 * /fleet/vehicle route in a real browser against `npm start` on a fresh demo database whose demo
 * fleet first uploads two days of history through the gateway (derived into the ledger, behaviour
 * and health), then reports live. Schedules are added through the API for the vehicles that drove.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 4, historyDays: 2 } });
const { api } = suite;

const today = dayOf(new Date());
const weekAgo = dayOf(new Date(Date.now() - 6 * 86_400_000));
const week = { begin: weekAgo, end: today };
/** The demo's schedules of the week: the seed put each driver on their vehicle every day it drove. */
const scheduled: Array<{ driverId: number; vehicleId: number; workDate: string }> = [];

beforeAll(async () => {
  const page = (await api('POST', '/vehicle/schedule/query', { criteria: { workDate: [weekAgo, today] }, pageSize: 1000 })) as {
    data: Array<{ driverId: number; vehicleId: number; workDate: string }>;
  };
  for (const { driverId, vehicleId, workDate } of page.data) scheduled.push({ driverId, vehicleId, workDate });
  if (!scheduled.length) throw new Error('the demo seeded no schedule this week');
  // A policy every moving demo vehicle breaks: the live fleet's next reports raise OverSpeed alarms (violations of today).
  await overspeedEverywhere(api);
}, 300_000);

/** Message keys shown raw (a key missing from the language) and error toasts on screen. */
async function screenFaults(page: Page): Promise<string[]> {
  const text = await page.locator('main, .ant-layout-content').first().innerText();
  const raw = text.match(/\b(?:console|reports|entity|behaviour|alarm|menu)\.[A-Za-z]+\.[\w.]+/g) ?? [];
  const toasts = await page.locator('.ant-message-error, .ant-notification-notice-error').allInnerTexts();
  return [...raw, ...toasts];
}

const rowsOf = (page: Page, testId: string) => page.getByTestId(testId).locator('.ant-table-tbody tr.ant-table-row');

describe('statistics', () => {
  it('health: totals, the trend, vehicles by band with their faults, a band filter and its xlsx', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p, cancelledExport);
    });
    type Total = { vehicles: number; healthy: number };
    // The live fleet keeps deriving today's health: the page is held to what it was answered, and
    // each file to the total read just before and after it.
    const readTotal = async () =>
      (await api('POST', '/vehicle/vehicleDailyHealth/total', {
        criteria: { begin: dayOf(new Date(Date.now() - 29 * 86_400_000)), end: today },
      })) as Total;
    const pageTotal = page
      .waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicleDailyHealth/total'))
      .then(async (r) => (await r.json()) as Total);
    await openPage(page, '/statistics/health', 'vehicleDailyHealth/vehicleDailyHealthFleet');
    const shownTotal = await pageTotal;
    expect(shownTotal.vehicles).toBeGreaterThan(0);
    await page.getByTestId('health-chart').locator('canvas').waitFor();
    await rowsOf(page, 'health-vehicles').first().waitFor();
    expect(await rowsOf(page, 'health-vehicles').count()).toBe(Math.min(20, shownTotal.vehicles));
    const healthyFigure = page.getByTestId('health-total-healthy').locator('.ant-statistic-content-value');
    await healthyFigure.waitFor();
    expect(await healthyFigure.innerText()).toBe(String(shownTotal.healthy));
    await screenshot(page, 'statistics-health');

    const exported = async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('health-export').click()]);
      return sheetRows(await download.path());
    };
    const [total, rows] = await steadily(readTotal, exported);
    expect(rows[0].slice(0, 3)).toEqual(['车牌号', '健康状态', '健康指数']);
    expect(rows).toHaveLength(total.vehicles + 1);

    // One band: the table and the file hold that band only.
    await page.getByTestId('health-band').locator('.ant-segmented-item').filter({ hasText: '健康' }).first().click();
    await page.waitForFunction(
      () =>
        document.querySelectorAll(
          '[data-testid=health-vehicles] .ant-table-tbody tr.ant-table-row, [data-testid=health-vehicles] .ant-table-placeholder',
        ).length > 0,
    );
    const [healthyTotal, healthyRows] = await steadily(readTotal, exported);
    expect(healthyRows).toHaveLength(healthyTotal.healthy + 1);
    expect(healthyRows.slice(1).every((r) => r[1] === '健康')).toBe(true);
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('safety: the score trend, harsh events, the ranking, quick ranges and its xlsx; in English', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('en-US', (p) => {
      problems = watch(p, cancelledExport);
    });
    const first = await openPage(page, '/statistics/safety', 'dailyDrivingBehavior/vehicleSafetyEchart');
    const answer = (await first.json()) as { ranking: Array<{ licence: string }> };
    expect(answer.ranking.length).toBeGreaterThan(0);
    await page.getByTestId('safety-chart').locator('canvas').waitFor();
    await page.getByTestId('safety-events').locator('canvas').waitFor();
    await rowsOf(page, 'safety-ranking').first().waitFor();
    expect(await rowsOf(page, 'safety-ranking').count()).toBe(Math.min(20, answer.ranking.length));
    await page.getByTestId('safety-ranking').getByText('Safety score').first().waitFor();
    await screenshot(page, 'statistics-safety-en');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('safety-export').click()]);
    const rows = await sheetRows(await download.path());
    expect(rows[0].slice(0, 3)).toEqual(['Rank', 'Licence plate', 'Safety score']);
    // The live fleet keeps scoring today while the page is open, so the file (asked later) may
    // order the vehicles otherwise than the first answer: the same vehicles, best score first.
    const filed = rows.slice(1);
    expect(filed.map((r) => r[1]).sort()).toEqual(answer.ranking.map((r) => r.licence).sort());
    const scores = filed.map((r) => (r[2] === '' || r[2] === undefined || r[2] === null ? -1 : Number(r[2])));
    expect(scores.every((s, i) => i === 0 || scores[i - 1] >= s)).toBe(true);

    await page.mouse.move(0, 0);
    const weekAsked = page.waitForResponse((r) => r.url().endsWith('/vehicleSafetyEchart'));
    await page.getByTestId('stats-quick').locator('.ant-segmented-item').filter({ hasText: 'Last 7 days' }).click();
    const { criteria } = (await weekAsked).request().postDataJSON() as { criteria: { begin: string; end: string } };
    // Computed now: the day may have turned since the suite began.
    expect(criteria).toMatchObject(quickRange(7));
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('cost by organisation, /fleet/vehicle as the fuel view, and the dashboard health bands', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p, cancelledExport);
    });
    await page.getByTestId('dashboard-health').getByText('健康指数').first().waitFor();
    // The band's page opens with that band chosen; it loads before the test moves on (leaving
    // earlier would cancel its calls, as a person clicking away would).
    const bandAsked = page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet'));
    await page.getByTestId('dashboard-health-healthy').click();
    await page.waitForURL('**/statistics/health');
    await bandAsked;
    await page
      .locator('[data-testid=health-vehicles] .ant-table-tbody tr.ant-table-row, [data-testid=health-vehicles] .ant-table-placeholder')
      .first()
      .waitFor();
    await page.locator('[data-testid=health-chart] canvas, [data-testid=health-chart-empty]').first().waitFor();
    await page.getByTestId('health-total-healthy').locator('.ant-statistic-content-value').waitFor();

    await openPage(page, '/statistics/cost', 'cost/summary');
    await rowsOf(page, 'cost-rows').first().waitFor();
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/cost/summary') && r.request().postDataJSON().criteria.by === 'org'),
      page.getByTestId('cost-group').getByText('按组织').click(),
    ]);
    await page.getByTestId('cost-rows').locator('thead').getByText('组织', { exact: true }).waitFor();
    await rowsOf(page, 'cost-rows').first().waitFor();

    await openPage(page, '/fleet/vehicle', 'dailyDrivingBehavior/mileageAndFuelByDay');
    await page.getByTestId('statistics-fuel').getByTestId('fuel-chart').locator('canvas').waitFor();
    await page.locator('.ant-menu-item-selected').getByText('油耗统计').waitFor();
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('team monitoring', () => {
  it('order schedule: drivers by day with what their vehicle drove, the list, a driver filter and its xlsx', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p, cancelledExport);
    });
    const first = await openPage(page, '/team/orderSchedule', 'team/orderSchedule');
    const answer = (await first.json()) as { rows: Array<{ driverId: number; tripCount: number }> };
    expect(answer.rows).toHaveLength(scheduled.length);
    await page.getByTestId('schedule-calendar').getByTestId('schedule-shift').first().waitFor();
    expect(await page.getByTestId('schedule-shift').count()).toBe(scheduled.length);
    // Every scheduled vehicle drove that day (the schedule was made from the ledger).
    expect(await page.getByTestId('schedule-calendar').locator('[data-testid=schedule-shift][data-state=driven]').count()).toBe(
      scheduled.length,
    );
    await page.getByTestId('schedule-calendar').getByText('次行程').first().waitFor();
    await screenshot(page, 'team-orderSchedule');

    await page.getByRole('tab', { name: '列表' }).click();
    await rowsOf(page, 'schedule-list').first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('orderSchedule-export').click()]);
    const rows = await sheetRows(await download.path());
    expect(rows[0].slice(0, 4)).toEqual(['日期', '驾驶员', '班次', '车牌号']);
    expect(rows).toHaveLength(scheduled.length + 1);
    expect(rows.slice(1).every((r) => r[2] === '全天')).toBe(true);

    // One driver: the criteria carry the driver and the calendar shows that driver only.
    const driverAsked = page.waitForResponse((r) => r.url().endsWith('/team/orderSchedule'));
    await page.getByTestId('stats-filter').locator('.ant-select').last().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    const asked = (await driverAsked).request().postDataJSON() as { criteria: { driverId: number } };
    expect(asked.criteria.driverId).toEqual(expect.any(Number));
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('violations: each driver per day as the server counts them, its xlsx, and a download that can be cancelled', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p, cancelledExport);
    });
    // Wait, as a dispatcher would, for the live fleet's first overspeed.
    for (const deadline = Date.now() + 180_000; !(await api('POST', '/vehicle/team/breakRules', { criteria: week })).rows.length;) {
      if (Date.now() > deadline) throw new Error('no violation arrived from the live fleet');
      await new Promise((r) => setTimeout(r, 2000));
    }
    const first = await openPage(page, '/team/breakRules', 'team/breakRules');
    const answer = (await first.json()) as { rows: Array<{ driverName: string | null; overSpeed: number }> };
    expect(answer.rows.some((r) => r.overSpeed > 0)).toBe(true);
    const table = page.getByTestId('breakRules-table');
    await table.locator('.ant-table-tbody tr.ant-table-row, .ant-table-placeholder').first().waitFor();
    expect(await rowsOf(page, 'breakRules-table').count()).toBe(Math.min(20, answer.rows.length));
    await screenshot(page, 'team-breakRules');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('breakRules-export').click()]);
    const rows = await sheetRows(await download.path());
    expect(rows[0][1]).toBe('驾驶员');
    // The live fleet may add a vehicle's first overspeed of the day between the page's call and the export's.
    expect(rows.length - 1).toBeGreaterThanOrEqual(answer.rows.length);

    // A slow download shows its progress and stops on cancel, saving nothing.
    await openPage(page, '/team/orderSchedule', 'team/orderSchedule');
    await page.getByTestId('schedule-calendar').getByTestId('schedule-shift').first().waitFor();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/vehicle/team/orderSchedule/export', async (route) => {
      await held;
      await route.continue().catch(() => undefined); // the browser has cancelled it by now
    });
    let saved = false;
    page.on('download', () => (saved = true));
    await page.getByTestId('orderSchedule-export').click();
    await page.getByTestId('download-progress').getByText(`正在导出 ${scheduled.length} 行`).waitFor();
    await page.getByTestId('download-cancel').click();
    await page.getByTestId('download-status').waitFor({ state: 'detached' });
    release();
    expect(saved).toBe(false);
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('tables at 1280 and 1440 px', () => {
  it.each([1280, 1440])('keep every column reachable and the actions clear of them at %i px', async (width) => {
    const { page, context } = await suite.adminPage('zh-CN', (p) => p.setViewportSize({ width, height: 900 }));
    const pages: Array<[string, string, string]> = [
      ['/system/account', 'member/query', '.ant-pro-table'],
      ['/statistics/health', 'vehicleDailyHealth/vehicleDailyHealthFleet', '[data-testid=statistics-health]'],
      ['/statistics/safety', 'dailyDrivingBehavior/vehicleSafetyEchart', '[data-testid=statistics-safety]'],
      ['/statistics/daily', 'dailyDrivingBehavior/mileageAndFuelByDayAndVehicle', '[data-testid=statistics-daily]'],
      ['/team/breakRules', 'team/breakRules', '[data-testid=team-breakRules]'],
      ['/team/orderSchedule', 'team/orderSchedule', '[data-testid=team-orderSchedule]'],
    ];
    const faults: string[] = [];
    for (const [path, call, scope] of pages) {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/') && r.url().endsWith(call)),
        page.goto(path),
      ]);
      expect(response.status()).toBe(200);
      await page.locator(`${scope} .ant-table-tbody tr.ant-table-row`).first().waitFor();
      faults.push(...(await tableFits(page, scope)).map((f) => `${path} @${width}: ${f}`));
    }
    expect(faults).toEqual([]);
    await context.close();
  });
});
