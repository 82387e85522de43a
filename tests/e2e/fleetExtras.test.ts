import type { Browser, Page } from 'playwright-core';
import { http } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, buildConsole, launchChromium, login, openPage, screenshot, startConsoleServer } from './helpers/console';

/**
 * The remaining fleet and system page extras in a real browser against `npm start` on a fresh demo
 * database: an international member's password reset (shown once, copied), the driver
 * licence-expiry list (an expired licence in red), and a vehicle's location share link opening the
 * public page in a profile that never signed in.
 */
jest.setTimeout(240_000);

let server: Awaited<ReturnType<typeof startConsoleServer>>;
let browser: Browser;
let adminToken: string;

async function api(method: string, path: string, body?: unknown) {
  const r = await http(server.url + '/api' + path, method, body, adminToken);
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${r.text}`);
  return r.json;
}

beforeAll(async () => {
  const consoleDir = await buildConsole();
  server = await startConsoleServer(consoleDir);
  browser = await launchChromium();
  adminToken = (await http(server.url + '/api/login', 'POST', { loginName: 'admin', password: ADMIN_PASSWORD, application: 'obd-web' })).json.object.token;
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function adminPage() {
  const opened = await openPage(browser, server.url, 'zh-CN');
  await login(opened.page, 'admin', ADMIN_PASSWORD);
  await opened.page.waitForURL('**/dashboard');
  return opened;
}

const rows = (page: Page, entity: string) => page.getByTestId(`entity-page-${entity}`).locator('.ant-table-tbody tr.ant-table-row');

/** Opens a schema page and waits for its first list query. */
async function openList(page: Page, path: string, entity: string) {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${entity}/query`) && r.request().method() === 'POST'), page.goto(path)]);
  expect(response.status()).toBe(200);
}

async function search(page: Page, entity: string, keyword: string) {
  const box = page.getByTestId(`entity-page-${entity}`).getByPlaceholder('搜索关键字');
  await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${entity}/query`) && r.request().method() === 'POST'), box.fill(keyword).then(() => box.press('Enter'))]);
}

/** Waits for antd's opening animations to end, so a screenshot shows the dialog, not its fade-in. */
const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('.ant-zoom-appear, .ant-zoom-enter, .ant-fade-appear, .ant-fade-enter, .ant-slide-up-appear, .ant-slide-up-enter'));

/** Today plus `days` on this machine (the server's database runs on the same clock), 'YYYY-MM-DD'. */
function dayFrom(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('international members', () => {
  it('resets a password after confirming and shows the new one once, with copy and a warning', async () => {
    const member = await api('POST', '/vehicle/interMember', { name: 'Lucía Fernández', email: 'lucia.e2e@example.es', language: 'es-ES' });
    const { page, context, external } = await adminPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await openList(page, '/system/interMember', 'interMember');
    await search(page, 'interMember', 'lucia.e2e');
    const row = rows(page, 'interMember').filter({ hasText: 'Lucía Fernández' });
    await row.getByTestId('row-reset-password').click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText('确定为 Lucía Fernández 重置密码？原密码将立即失效。').waitFor();
    const [reset] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/interMember/reset/${member.id}`)), confirm.getByRole('button', { name: /重置密码/ }).click()]);
    expect(reset.status()).toBe(200);
    const { password } = (await reset.json()) as { password: string };
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);

    const dialog = page.locator('.ant-modal-content').filter({ hasText: 'Lucía Fernández 的新密码' });
    expect(await dialog.getByTestId('reset-password-value').inputValue()).toBe(password);
    await dialog.getByText('密码已重置，请将新密码告知该会员').waitFor();
    await dialog.getByText('新密码只显示这一次，关闭后无法再次查看，请立即复制并告知该会员。').waitFor();
    // The clipboard answers only a focused document; another worker's browser may hold the focus.
    await page.bringToFront();
    await dialog.getByTestId('reset-password-copy').click();
    await page.locator('.ant-message-notice').getByText('已复制').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await settled(page);
    await screenshot(page, 'system-intermember-reset');

    // Closed, it is gone: nowhere on the page, and the member's record tells only when it was reset.
    await dialog.getByRole('button', { name: /关\s*闭/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate((p) => document.documentElement.outerHTML.includes(p), password)).toBe(false);
    const stored = await api('GET', `/vehicle/interMember/${member.id}`);
    expect(stored.passwordResetAt).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(password);
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('drivers', () => {
  it('lists an expired licence in red and an expiring one plainly, with the vehicles they drive', async () => {
    const team = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '上海车队' } })).data[0].id as number;
    const expired = await api('PUT', '/vehicle/driver', { name: '证过期', mobile: '13600000001', orgId: team, licenseNo: 'E2E-LIC-1', licenseClass: 'A2', licenseExpire: dayFrom(-5) });
    const expiring = await api('PUT', '/vehicle/driver', { name: '证将到', mobile: '13600000002', orgId: team, licenseNo: 'E2E-LIC-2', licenseClass: 'B2', licenseExpire: dayFrom(10) });
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { orgId: team }, pageSize: 1 })).data[0];
    await api('PUT', `/vehicle/vehicle/${vehicle.id}`, { driverId: expired.id });

    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/driver', 'driver');
    const [listed] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/driver/licenses') && r.request().method() === 'POST'), page.getByTestId('driver-licences').click()]);
    expect(listed.status()).toBe(200);
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '驾驶证到期提醒' });
    const table = dialog.getByTestId('licence-expiry-table');
    const red = table.locator('tr.ant-table-row').filter({ hasText: '证过期' });
    await red.waitFor();
    expect(await red.getAttribute('data-testid')).toBe('licence-expired-row');
    expect(
      await red
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ).toBe('rgb(255, 77, 79)');
    await red.getByText('已过期').waitFor();
    await red.getByText(vehicle.licence).waitFor();
    expect(await red.locator('td').nth(6).innerText()).toBe('-5');

    const plain = table.locator('tr.ant-table-row').filter({ hasText: '证将到' });
    await plain.getByText('未分配车辆').waitFor();
    expect(await plain.getAttribute('data-testid')).toBeNull();
    expect(
      await plain
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ).not.toBe('rgb(255, 77, 79)');
    expect(await plain.locator('td').nth(6).innerText()).toBe('10');
    await settled(page);
    await screenshot(page, 'fleet-driver-licences');

    // A shorter look-ahead leaves the expiring one out; the expired one stays.
    await dialog.getByTestId('licence-within-days').fill('7');
    const [narrowed] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/driver/licenses')), dialog.getByTestId('licence-search').click()]);
    const ids = ((await narrowed.json()) as { data: Array<{ id: number }> }).data.map((d) => d.id);
    expect(ids).toContain(expired.id);
    expect(ids).not.toContain(expiring.id);
    await plain.waitFor({ state: 'detached' });
    await red.waitFor();
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('vehicles', () => {
  it('creates a share link from the vehicle row that opens the public location page without signing in', async () => {
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '浙A' }, pageSize: 1 })).data[0];
    const { page, context } = await adminPage();
    await openList(page, '/fleet/vehicleList', 'vehicle');
    await search(page, 'vehicle', vehicle.licence);
    const share = rows(page, 'vehicle').filter({ hasText: vehicle.licence }).getByTestId('share-location');
    await share.waitFor();
    await screenshot(page, 'fleet-vehicle-share-action');
    await share.click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '分享车辆位置' });
    const [created] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/share') && r.request().method() === 'POST'), dialog.getByTestId('share-create').click()]);
    expect(created.status()).toBe(201);
    const link = await dialog.getByTestId('share-link').locator('input').inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/location/[A-Za-z0-9_-]{43}$`));
    await context.close();

    // Someone else's browser: no session, no login page, the vehicle's licence.
    const stranger = await openPage(browser, server.url);
    await stranger.page.goto(link);
    await stranger.page.getByTestId('location-licence').getByText(vehicle.licence, { exact: true }).waitFor();
    expect(stranger.page.url()).toBe(link);
    expect(await stranger.page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain('token');
    expect(stranger.external).toEqual([]);
    await stranger.context.close();
  });
});
