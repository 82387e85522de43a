import { useConsoleSuite } from './helpers/console';
import { settled, watch } from './helpers/pageChecks';

/**
 * The event subscriptions page in a real browser: a subscription is created, its secret shown once,
 * then listed; it is paused and resumed, and its delivery log opens.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();

describe('event subscriptions page', () => {
  it('creates a subscription showing its secret once, pauses and resumes it, and opens its log', async () => {
    const { page } = await suite.adminPage();
    page.setDefaultTimeout(30_000);
    const problems = watch(page);
    const listed = (r: { url(): string; request(): { method(): string } }) =>
      r.url().endsWith('/api/vehicle/subscription') && r.request().method() === 'GET';
    await Promise.all([page.waitForResponse(listed), page.goto('/operation/subscription')]);
    await page.getByTestId('subscription-page').waitFor();
    await page.getByTestId('subscription-new').click();
    await settled(page);
    await page.locator('#subscription-form_name').fill('调度系统');
    await page.locator('#subscription-form_url').fill('https://hooks.example.com/fleet-events');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/subscription') && r.request().method() === 'POST'),
      page
        .locator('.ant-modal')
        .getByRole('button', { name: /确\s*定|OK/ })
        .click(),
    ]);
    expect(created.status()).toBe(200);
    const { secret } = (await created.json()) as { secret: string };
    await expect(page.getByTestId('subscription-secret').inputValue()).resolves.toBe(secret);
    const row = page.locator('.ant-table-row').filter({ hasText: '调度系统' });
    await row.waitFor();
    await page.getByTestId('subscription-created').getByRole('button', { name: '我已保存' }).click();
    await page.getByTestId('subscription-created').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);

    await Promise.all([page.waitForResponse(listed), row.getByRole('button', { name: '暂停' }).click()]);
    await row.getByText('已暂停').waitFor();
    await Promise.all([page.waitForResponse(listed), row.getByRole('button', { name: '恢复' }).click()]);
    await row.getByText('推送中').waitFor();

    await Promise.all([
      page.waitForResponse((r) => /\/subscription\/\d+\/delivery\/query$/.test(r.url())),
      row.getByTestId('subscription-log').click(),
    ]);
    await page.locator('.ant-drawer-content').getByText('调度系统 的推送记录').waitFor();
    expect(problems).toEqual([]);
  });
});
