import { screenshot, useConsoleSuite } from './helpers/console';
import { settled, watch } from './helpers/pageChecks';

/**
 * Maintenance due state in a real browser against `npm start` with the demo data: schedules whose
 * day interval is used up (overdue) or inside its warning window (due) show on the dashboard's
 * figure, on the maintenance status page (overdue first, a work order made from the row) and on the
 * vehicle detail's maintenance tab, with no failed call or console error.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();

/** The local day `days` ago, as the schedule's start date. */
const daysAgo = (days: number) => {
  const d = new Date(Date.now() - days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('maintenance status', () => {
  it('shows due and overdue schedules on the dashboard, the status page and the vehicle detail', async () => {
    const vehicle = (await suite.api('POST', '/vehicle/vehicle/query', { pageSize: 1 })).data[0] as { id: number; licence: string };
    await suite.api('POST', '/vehicle/maintenanceSchedule', {
      name: '年度检查E2E',
      vehicleId: vehicle.id,
      intervalDays: 30,
      warnDays: 5,
      startDate: daysAgo(60),
    });
    await suite.api('POST', '/vehicle/maintenanceSchedule', {
      name: '轮胎换位E2E',
      vehicleId: vehicle.id,
      intervalDays: 30,
      warnDays: 10,
      startDate: daysAgo(25),
    });
    const status = (await suite.api('POST', '/vehicle/maintenance/status', {})) as { counts: Record<'ok' | 'due' | 'overdue', number> };
    expect(status.counts.overdue).toBeGreaterThan(0);
    expect(status.counts.due).toBeGreaterThan(0);

    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);

    // The dashboard's figure: the scope's counts, leading to the status page.
    const card = page.getByTestId('dashboard-maintenance');
    await card.getByText('保养到期').waitFor();
    const overdueFigure = page.getByTestId('dashboard-maintenance-overdue');
    await overdueFigure.locator('.ant-statistic-content-value').getByText(String(status.counts.overdue), { exact: true }).waitFor();
    await page
      .getByTestId('dashboard-maintenance-due')
      .locator('.ant-statistic-content-value')
      .getByText(String(status.counts.due), { exact: true })
      .waitFor();
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/maintenance/status') && r.request().method() === 'POST'),
      overdueFigure.click(),
    ]);
    await page.waitForURL('**/maintenance/status');

    // The status page: the counts above, each test schedule's row with its state, overdue first.
    const statusPage = page.getByTestId('maintenance-status');
    await statusPage
      .getByTestId('maintenance-count-overdue')
      .locator('.ant-statistic-content-value')
      .getByText(String(status.counts.overdue), { exact: true })
      .waitFor();
    const rows = statusPage.getByTestId('maintenance-usage').locator('.ant-table-tbody tr.ant-table-row');
    const overdueRow = rows.filter({ hasText: '年度检查E2E' });
    await overdueRow.getByText('已超期').waitFor();
    await overdueRow.getByText(vehicle.licence).waitFor();
    const dueRow = rows.filter({ hasText: '轮胎换位E2E' });
    await dueRow.getByText('即将到期').waitFor();
    await rows.first().getByText('已超期').waitFor();

    // Only the overdue rows once the state filter asks for them.
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/maintenance/status')),
      statusPage.getByTestId('maintenance-count-overdue').click(),
    ]);
    await dueRow.waitFor({ state: 'detached' });
    await overdueRow.getByText('已超期').waitFor();
    expect(await rows.count()).toBe(Math.min(status.counts.overdue, 20));
    await settled(page);
    await screenshot(page, 'maintenance-status');

    // A work order from the overdue row's schedule.
    await overdueRow.getByTestId('row-create-work-order').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText(`为 ${vehicle.licence} 的「年度检查E2E」生成维修工单？`).waitFor();
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/workOrder/fromSchedule')),
      confirm.getByRole('button', { name: /生成工单/ }).click(),
    ]);
    expect(created.status()).toBe(201);
    const workOrder = (await created.json()) as { id: number };
    expect((await suite.api('GET', `/vehicle/workOrder/${workOrder.id}`)).title).toBe('年度检查E2E');
    await page.locator('.ant-message-notice').getByText(`已生成工单 #${workOrder.id}`).waitFor();

    // The vehicle detail's maintenance tab: its schedules and their states.
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/maintenance/vehicle/${vehicle.id}`)),
      page.goto(`/vehicleDetail/vehicleDetail/${vehicle.id}?tab=maintenance`),
    ]);
    const detail = page.getByTestId('detail-maintenance').locator('.ant-table-tbody tr.ant-table-row');
    await detail.filter({ hasText: '年度检查E2E' }).getByText('已超期').waitFor();
    await detail.filter({ hasText: '轮胎换位E2E' }).getByText('即将到期').waitFor();
    await settled(page);
    expect(problems).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });
});
