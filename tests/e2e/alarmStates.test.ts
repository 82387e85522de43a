import { SimTerminal } from '../../server/simulator/terminal';
import { freePort } from '../helpers/serverProcess';
import { ScriptedDay } from '../server/intelligence/alarms/scriptedDay';
import { screenshot, useConsoleSuite } from './helpers/console';
import { openPage } from './helpers/pageChecks';

/**
 * A handled alarm that later data replaced, in the alarm centre in a real browser against
 * `npm start`: a demo terminal idles (the demo's Idle policy: 3 minutes) with its first 30 s
 * missing, the alarm is handled with a note, the 30 s come as a blind-area upload; the history
 * shows the old alarm superseded with a link to the one that replaced it, which carries the note.
 */
jest.setTimeout(300_000);

let jt808Port = 0;
const suite = useConsoleSuite({
  env: async () => {
    jt808Port = await freePort();
    return { JT808_PORT: String(jt808Port) };
  },
});
const { api } = suite;

const PHONE = '808000000021';
const START = Date.parse('2026-11-21T00:00:00Z');

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('alarm centre history', () => {
  it('shows a superseded alarm with its state and a link to the alarm that replaced it, which carries the handling', async () => {
    const day = new ScriptedDay(START, { latitude: 31.2, longitude: 121.4 }).step(60, 40).step(300, 0, { acc: true }).step(60, 40);
    const idleFrom = START + 60_000;
    const late = day.reports.filter((r) => (r.time as number) >= idleFrom && (r.time as number) < idleFrom + 30_000);
    const terminal = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone: PHONE, keepAcked: true });
    await terminal.connect();
    for (const r of day.reports.filter((x) => !late.includes(x))) terminal.report(r);
    await terminal.drain(60_000);
    const idles = () =>
      api('POST', '/vehicle/alarm/query', { criteria: { type: 'Idle', begin: new Date(START).toISOString() }, pageIndex: 1, pageSize: 10 });
    const first = (await until(idles, (p) => p.data.length === 1)).data[0];
    await api('PUT', `/vehicle/alarm/${first.id}/handle`, { note: '司机在等货' });
    terminal.reportBatch(late, true);
    await terminal.drain(60_000);
    const both = await until(idles, (p) => p.data.length === 2);
    const successor = both.data.find((a: { state: string }) => a.state === 'current');
    expect(both.data.find((a: { id: number }) => a.id === first.id)).toMatchObject({ state: 'superseded', supersededBy: successor.id });
    await terminal.end();

    const { page, context } = await suite.adminPage('zh-CN');
    await openPage(page, '/alarm/ai', 'alarm/query');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/alarm/query')),
      page.getByRole('tab', { name: '全部告警' }).click(),
    ]);
    const table = page.getByTestId('alarm-all');
    const old = table.locator('tr.ant-table-row', { has: page.getByTestId('alarm-state').filter({ hasText: '已被取代' }) });
    await old.first().waitFor();
    await screenshot(page, 'alarm-superseded');
    const link = old.first().getByTestId('alarm-successor');
    expect(await link.innerText()).toBe(`由告警 #${successor.id} 取代`);
    // The link shows the successor alone, current, with the note carried over.
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/alarm/query')), link.click()]);
    await page
      .getByTestId('alarm-shown')
      .filter({ hasText: `告警 #${successor.id}` })
      .waitFor();
    // The list of two gives way to the successor's alone.
    await table.locator('tr.ant-table-row').nth(1).waitFor({ state: 'detached' });
    await table.locator('tr.ant-table-row').filter({ hasText: '司机在等货' }).waitFor();
    expect(await table.locator('tr.ant-table-row').count()).toBe(1);
    expect(await table.getByTestId('alarm-state').count()).toBe(0);
    await context.close();
  });
});
