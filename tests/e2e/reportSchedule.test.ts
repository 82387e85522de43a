import { readMail, startSmtpServer, type SmtpServer } from '../helpers/smtpServer';
import { entityRows, screenshot, useConsoleSuite } from './helpers/console';
import { openPage, settled, watch } from './helpers/pageChecks';

/**
 * The report schedules page in a real browser against `npm start` with the demo data and a real SMTP
 * server: a schedule sent now from its row (the mail arrives with the sheet attached) and its
 * history of sends, with no failed call or console error.
 */
jest.setTimeout(240_000);

let smtp: SmtpServer | undefined;
const suite = useConsoleSuite({
  env: async () => {
    smtp = await startSmtpServer();
    return { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'reports@fleet.example' };
  },
});
afterAll(async () => smtp?.close());

describe('report schedules', () => {
  it('sends a schedule now from its row and shows the send in its history', async () => {
    const schedule = await suite.api('POST', '/vehicle/reportSchedule', {
      name: '华东日报',
      report: 'daily',
      frequency: 'daily',
      sendTime: '07:30',
      recipients: 'manager.e2e@example.com',
      language: 'zh-CN',
    });
    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);
    await openPage(page, '/statistics/reportSchedule', 'reportSchedule/query');
    const row = entityRows(page, 'reportSchedule').filter({ hasText: '华东日报' });
    await row.getByText('行驶日报').waitFor();

    await row.getByTestId('row-send-now').click();
    await settled(page);
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText('立即将该报表最近一个完整周期发送给收件人？').waitFor();
    const [sent] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/reportSchedule/${schedule.id}/send`)),
      confirm.getByRole('button', { name: /立即发送/ }).click(),
    ]);
    expect(sent.status()).toBe(200);
    const send = (await sent.json()) as { status: string; periodBegin: string };
    expect(send.status).toBe('sent');
    await page.locator('.ant-message-notice').getByText(`已发送：${send.periodBegin}`, { exact: true }).waitFor();
    const mail = smtp!.messages.find((m) => m.to.includes('manager.e2e@example.com'));
    expect(readMail(mail!.data).subject).toBe(`行驶日报 ${send.periodBegin} · 华东日报`);

    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/reportSchedule/${schedule.id}/sends`)),
      row.getByTestId('row-send-history').click(),
    ]);
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '“华东日报”的发送记录' });
    const history = dialog.getByTestId('report-send-history').locator('.ant-table-tbody tr.ant-table-row');
    await history.first().getByText('已发送').waitFor();
    expect(await history.count()).toBe(1);
    await history.first().getByText('立即发送').waitFor();
    await history.first().getByText('manager.e2e@example.com').waitFor();
    await settled(page);
    await screenshot(page, 'statistics-report-schedule-history');
    expect(problems).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });
});
