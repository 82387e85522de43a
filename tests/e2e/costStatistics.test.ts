import type { Page, Response } from 'playwright-core';
import { catalogues } from '../../schemas/kit/catalogue';
import { formatNumber } from '../../src/components/charts/numberFormat';
import { quickRange } from '../../src/components/statistics/statsCriteria';
import { COST_PARTS, COST_TOTALS, costDigits } from '../../src/pages/statistics/costModel';
import type { CostGroup, CostSummary } from '../../src/services/costs';
import { useConsoleSuite } from './helpers/console';
import { watch } from './helpers/pageChecks';

/**
 * The cost statistics page in a real browser against `npm start` on the demo database (no live
 * fleet, so the figures hold still): a done work order and a toll entered through the API for a
 * demo vehicle show in the page's totals exactly as the cost summary answers them for the same
 * criteria; the breakdown chart draws fuel, maintenance and other; the table switches to models.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite();
const { api } = suite;
const LOCALE = 'en-US';
const label = (k: string) => catalogues[LOCALE][`console.statistics.cost.${k}`];

/** The page's next cost summary call grouped `by`. */
const summaryAsked = (page: Page, by: CostGroup): Promise<Response> =>
  page.waitForResponse(
    (r) =>
      r.url().endsWith('/api/vehicle/cost/summary') && (r.request().postDataJSON() as { criteria: { by: CostGroup } }).criteria.by === by,
  );

it('shows the summary’s totals with work orders and other costs, the three-part chart and the rows by model', async () => {
  const range = quickRange(30);
  const vehicles = (await api('POST', '/vehicle/vehicle/query', { criteria: {}, pageSize: 1 })) as {
    data: Array<{ id: number; model: string | null }>;
  };
  const vehicle = vehicles.data[0];
  expect(vehicle.model).toBeTruthy();
  await api('POST', '/vehicle/workOrder', {
    title: 'Brake pads',
    vehicleId: vehicle.id,
    status: 'done',
    serviceDate: range.end,
    cost: 812.4,
  });
  await api('POST', '/vehicle/vehicleCost', { vehicleId: vehicle.id, day: range.end, kind: 'toll', amount: 66.5 });

  let problems: string[] = [];
  const { page, context } = await suite.adminPage(LOCALE, (p) => {
    problems = watch(p);
  });
  const [byVehicle, byDay] = await Promise.all([summaryAsked(page, 'vehicle'), summaryAsked(page, 'day'), page.goto('/statistics/cost')]);
  expect(byVehicle.request().postDataJSON()).toEqual({ criteria: { ...range, orgId: null, vehicleId: null, by: 'vehicle' } });
  expect(byDay.status()).toBe(200);

  // The same criteria asked again: the page shows what the summary answers.
  const expected = (await api('POST', '/vehicle/cost/summary', { criteria: { ...range, by: 'vehicle' } })) as CostSummary;
  expect(expected.totals.maintenance).toBeGreaterThanOrEqual(812.4);
  expect(expected.totals.other).toBeGreaterThanOrEqual(66.5);
  for (const k of COST_TOTALS) {
    const figure = page.getByTestId(`cost-total-${k}`).locator('.ant-statistic-content-value');
    await figure.waitFor();
    expect([k, await figure.innerText()]).toEqual([k, formatNumber(expected.totals[k], LOCALE, costDigits(k))]);
  }

  // The breakdown chart, once drawn, has a legend entry per cost.
  const chart = page.getByTestId('cost-chart');
  await chart.locator('canvas').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=cost-chart]')?.hasAttribute('data-layout'));
  const layout = JSON.parse((await chart.getAttribute('data-layout')) ?? '{}') as { legendText: string[] };
  expect(layout.legendText).toEqual(COST_PARTS.map(label));

  // By model: one row per model the summary answers, the demo vehicle's among them.
  const rows = page.getByTestId('cost-rows').locator('.ant-table-tbody tr.ant-table-row');
  await rows.first().waitFor();
  const [byModel] = await Promise.all([summaryAsked(page, 'model'), page.getByTestId('cost-group').getByText(label('byModel')).click()]);
  const models = ((await byModel.json()) as CostSummary).rows;
  expect(models.map((r) => r.key)).toContain(vehicle.model);
  await page.getByTestId('cost-rows').locator('thead').getByText(label('model'), { exact: true }).waitFor();
  await page.getByTestId('cost-rows').getByRole('cell', { name: vehicle.model!, exact: true }).waitFor();
  expect(await rows.count()).toBe(Math.min(10, models.length));
  expect(problems).toEqual([]);
  await context.close();
});
