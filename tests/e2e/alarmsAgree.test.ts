import { SimTerminal } from '../../server/simulator/terminal';
import { freePort } from '../helpers/serverProcess';
import { freshPostgres } from '../helpers/testServer';
import { ScriptedDay } from '../server/intelligence/alarms/scriptedDay';
import { screenshot, useConsoleSuite } from './helpers/console';
import { openPage, watch } from './helpers/pageChecks';

/**
 * Alarms that agree, in a real browser against `npm start`: a demo terminal speeds (the demo's
 * OverSpeed policy: 70 km/h for a minute) and idles within the last hour, its alarm word always 0.
 * The dashboard's 告警中, the live map's 报警 and the alarm centre's current list all say the same
 * vehicles (a current alarm: open, or ended within the day and unhandled); the count leads to those
 * alarms; a terminal alarm clicked on the dashboard opens a page listing it, its peak with a unit;
 * handling it confirms it and takes it out of the current list.
 */
jest.setTimeout(600_000);

let jt808Port = 0;
let dropDatabase: (() => Promise<void>) | undefined;
// On PostgreSQL (a database of its own): the server starts in seconds where PGlite takes minutes on a loaded machine.
const suite = useConsoleSuite({
  env: async () => {
    jt808Port = await freePort();
    const pg = await freshPostgres();
    dropDatabase = pg.drop;
    return { JT808_PORT: String(jt808Port), DATABASE_URL: pg.url };
  },
});
afterAll(() => dropDatabase?.());
const { api } = suite;

const PHONE = '808000000021';

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Alarm {
  id: number;
  vehicleId: number;
  licence: string;
  type: string;
  category: string;
  value: number | null;
}

const current = async () =>
  (await api('POST', '/vehicle/alarm/query', { criteria: { current: true }, pageIndex: 1, pageSize: 500 })) as unknown as {
    data: Alarm[];
    total: number;
  };

describe('alarms that agree', () => {
  it('counts, maps and lists the same alarming vehicles, leads from each figure to its alarms, and confirms a handling', async () => {
    // Within the last hour, so its alarms are current once ended (the day's window).
    const start = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
    const day = new ScriptedDay(start, { latitude: 31.2, longitude: 121.4 })
      .step(60, 40, { acc: true })
      .step(180, 96, { acc: true })
      .step(60, 30, { acc: true })
      .step(300, 0, { acc: true })
      .step(60, 30, { acc: true });
    const terminal = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone: PHONE, keepAcked: true });
    await terminal.connect();
    for (const r of day.reports) terminal.report(r);
    await terminal.drain(60_000);
    const speeding = (
      await until(
        () =>
          api('POST', '/vehicle/alarm/query', {
            criteria: { type: 'OverSpeed', begin: new Date(start).toISOString() },
            pageIndex: 1,
            pageSize: 10,
          }),
        (p) => (p.data?.length ?? 0) === 1,
      )
    ).data![0] as unknown as Alarm;
    expect(speeding).toMatchObject({ category: 'terminal' });
    expect(speeding.value).toBeGreaterThan(90);
    const listed = await current();
    const alarmingVehicles = new Set(listed.data.map((a) => a.vehicleId));
    expect(alarmingVehicles.has(speeding.vehicleId)).toBe(true);

    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p);
    });
    // The dashboard's 告警中 is the number of vehicles the current list holds.
    await page.getByTestId('dashboard-page').waitFor();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=dashboard-count-alarming-value]')?.textContent?.trim() === String(n),
      alarmingVehicles.size,
    );
    // ... and leads to exactly those alarms.
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/alarm/query')),
      page.getByTestId('dashboard-count-alarming').click(),
    ]);
    await page.waitForURL('**/alarm/all');
    await page.getByTestId('alarm-current-help').getByText('24 小时内结束但尚未处理').waitFor();
    const all = page.getByTestId('alarm-all-current');
    await all.locator('tr.ant-table-row').first().waitFor();
    // One page (20 rows) holds them here: exactly the alarms the current list answered.
    expect(listed.total).toBeLessThanOrEqual(20);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=alarm-all-current] tr.ant-table-row').length === n,
      listed.total,
    );
    await screenshot(page, 'alarm-all-current');

    // The live map's 报警 says the same vehicles.
    await openPage(page, '/fleet/monitor', 'monitor/query');
    await page.getByTestId('status-alarming').getByText(`报警 ${alarmingVehicles.size}`).waitFor();

    // A terminal alarm clicked on the dashboard opens the terminal alarms' page on it, its peak in km/h.
    await openPage(page, '/dashboard', 'index/vehicleCount');
    const entry = page.getByTestId('dashboard-alarm').filter({ hasText: '超速报警' }).first();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/alarm/query')), entry.locator('a').click()]);
    await page.waitForURL(`**/alarm/terminal?alarmId=${speeding.id}`);
    const history = page.getByTestId('alarm-terminal-history');
    await page
      .getByTestId('alarm-shown')
      .filter({ hasText: `告警 #${speeding.id}` })
      .waitFor();
    await history.locator('tr.ant-table-row').filter({ hasText: speeding.licence }).waitFor();
    expect(await history.locator('tr.ant-table-row').count()).toBe(1);
    expect(await history.getByTestId('alarm-value').innerText()).toBe(`${Math.round(speeding.value!)} km/h`);
    await screenshot(page, 'alarm-terminal-linked');

    // Handling confirms it, and it leaves the current list (it has ended); the count follows.
    await history.getByTestId('alarm-handle').click();
    await page.getByTestId('alarm-note').fill('已提醒司机减速');
    const [handled] = await Promise.all([
      page.waitForResponse((r) => /\/api\/vehicle\/alarm\/\d+\/handle$/.test(r.url())),
      page.locator('.ant-modal-footer .ant-btn-primary').click(),
    ]);
    expect(handled.status()).toBe(200);
    await page.locator('.ant-message').getByText(`告警已处理：${speeding.licence} 超速报警`).waitFor();
    await history.locator('tr.ant-table-row').filter({ hasText: '已提醒司机减速' }).waitFor();
    const after = await current();
    expect(after.data.map((a) => a.id)).not.toContain(speeding.id);
    const stillAlarming = new Set(after.data.map((a) => a.vehicleId)).size;
    await openPage(page, '/dashboard', 'index/vehicleCount');
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=dashboard-count-alarming-value]')?.textContent?.trim() === String(n),
      stillAlarming,
    );
    await terminal.end();
    expect(problems).toEqual([]);
    await context.close();
  });
});
