import { useConsoleSuite } from './helpers/console';

/**
 * The strategy page's dialog in a real browser under the console's CSP (`script-src 'self'`): the
 * per-type parameters render with rjsf for the chosen alarm type, are checked by the precompiled
 * validators (nothing compiled in the page), and are saved with the policy.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();
const { api } = suite;

describe('policy parameters in the strategy dialog', () => {
  it('renders the fields of the chosen alarm type and saves them with the policy', async () => {
    const { page } = await suite.adminPage();
    page.setDefaultTimeout(30_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/policy/query')), page.goto('/fleet/strategy')]);
    await page.getByTestId('entity-add').click();
    await page.locator('#policy-form_name').fill('重复到访 e2e');
    await page.locator('#policy-form_alarmType').click();
    // The list is virtual (RepeatArrival is 16th): walk down to it with the keyboard.
    await page.locator('.ant-select-dropdown:visible').waitFor();
    for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowDown');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').filter({ hasText: '重复到访' }).waitFor();
    await page.keyboard.press('Enter');
    const count = page.locator('#policy-params_count');
    await count.waitFor();
    await page.locator('#policy-params_radiusM').waitFor();
    await page.locator('#policy-params_windowHours').waitFor();
    await count.fill('5');
    await count.blur();
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/policy') && r.request().method() === 'PUT'),
      // A modal or, for a long form, a drawer.
      page.locator('.ant-modal-footer .ant-btn-primary, .ant-drawer-footer .ant-btn-primary').click(),
    ]);
    expect(saved.status()).toBeLessThan(300);
    const found = await api('POST', '/vehicle/policy/query', { criteria: { name: '重复到访 e2e' }, pageIndex: 1, pageSize: 5 });
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({ alarmType: 'RepeatArrival', params: { radiusM: 200, count: 5, windowHours: 24 } });

    // Saved: how it applies is asked, from now on by default; here re-derived from a day, with its progress to the end.
    await page.getByTestId('policy-rederive').waitFor();
    await page.getByTestId('policy-rederive-day').click();
    const day = page.getByTestId('policy-rederive-date');
    await day.click();
    await day.fill('2026-11-20');
    await day.press('Enter');
    const [started] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/policy/${found.data[0].id}/rederive`)),
      page
        .locator('.ant-modal-footer .ant-btn-primary')
        .filter({ hasText: /应\s?用/ })
        .click(),
    ]);
    expect(started.status()).toBe(202);
    await page
      .getByTestId('policy-rederive-progress')
      .getByText(/已重新推导 \d+ 辆车/)
      .waitFor({ timeout: 120_000 });
    expect(pageErrors).toEqual([]);
  });
});
