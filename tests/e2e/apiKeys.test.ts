import { entityRows, screenshot, useConsoleSuite } from './helpers/console';
import { openPage, settled, watch } from './helpers/pageChecks';

/**
 * The API user page's keys drawer in a real browser: a key is created, its secret shown once with
 * a copy button, and after "saved" only its prefix is listed; the key then works against the API.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();
const { api } = suite;

describe('API keys on the API user page', () => {
  it('creates a key, shows its secret once, then lists only its prefix', async () => {
    await api('POST', '/vehicle/apiUser', { name: '浏览器集成方', appKey: 'browser-integrator' });
    const { page } = await suite.adminPage();
    page.setDefaultTimeout(30_000);
    const problems = watch(page);
    await openPage(page, '/operation/apiUser', 'apiUser/query');
    const row = entityRows(page, 'apiUser').filter({ hasText: '浏览器集成方' });
    await Promise.all([
      page.waitForResponse((r) => /\/api\/vehicle\/apiUser\/\d+\/keys$/.test(r.url())),
      row.getByTestId('api-keys').click(),
    ]);
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByText('浏览器集成方 的 API 密钥').waitFor();
    await settled(page);
    await page.locator('#api-key-form_name').fill('生产环境');
    await page.getByTestId('api-key-codes').click();
    await page.locator('.ant-select-dropdown:visible').getByText('(vehicle-edit)').click();
    await page.keyboard.press('Escape');
    const [created] = await Promise.all([
      page.waitForResponse((r) => /\/api\/vehicle\/apiUser\/\d+\/keys$/.test(r.url()) && r.request().method() === 'POST'),
      page.getByTestId('api-key-create').click(),
    ]);
    expect(created.status()).toBe(201);
    const { key, prefix } = (await created.json()) as { key: string; prefix: string };
    await expect(page.getByTestId('api-key-secret').inputValue()).resolves.toBe(key);
    await drawer.getByText(prefix).waitFor();
    await screenshot(page, 'api-keys-created');
    await page.getByTestId('api-key-created').getByRole('button', { name: '我已保存' }).click();
    await page.getByTestId('api-key-created').waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(key);
    expect(await drawer.locator('.ant-table-tbody').innerText()).toContain('有效');

    const listed = await fetch(`${suite.server.url}/api/vehicle/vehicle/query`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ pageSize: 1 }),
    });
    expect(listed.status).toBe(200);
    expect(problems).toEqual([]);
  });
});
