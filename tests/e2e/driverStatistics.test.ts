import { screenshot, useConsoleSuite } from './helpers/console';
import { openPage, watch } from './helpers/pageChecks';

/**
 * The driver statistics page in a real browser against `npm start` on a fresh demo database whose
 * demo fleet first uploads two days of history through the gateway, its drivers inserting and
 * removing their IC cards (one of them a card the demo does not know): each driver's row, the
 * unknown card to assign, and no failed call, page error or raw message key.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 4, historyDays: 2 } });

it('lists the figures per driver, per driver and day, and the card no driver holds', async () => {
  let problems: string[] = [];
  const { page, context } = await suite.adminPage('en-US', (p) => {
    problems = watch(p);
  });
  const answered = page
    .waitForResponse((r) => r.url().endsWith('/api/vehicle/driverStatistics/byDriver'))
    .then(async (r) => (await r.json()) as Array<{ kind: string; driverName: string | null }>);
  await openPage(page, '/statistics/driver', 'driverStatistics/byDriver');
  const rows = await answered;
  const drivers = rows.filter((r) => r.kind === 'driver');
  expect(drivers.length).toBeGreaterThan(0);
  const table = page.getByTestId('driver-stats');
  await table.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  expect(await table.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(rows.length);
  await table.getByText(drivers[0].driverName!).first().waitFor();
  // The ledger split per driver and day.
  await page.getByTestId('driver-days').locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  const cards = page.getByTestId('unknown-cards');
  await cards.getByText('QC900001').waitFor();
  await cards.getByTestId('assign-card').first().waitFor();
  const text = await page.locator('main, .ant-layout-content').first().innerText();
  expect(text.match(/\b(?:console|reports|driverStats|driverCard|menu)\.[A-Za-z]+\.[\w.]+/g) ?? []).toEqual([]);
  await screenshot(page, 'statistics-driver');
  expect(problems).toEqual([]);
  await context.close();
});
