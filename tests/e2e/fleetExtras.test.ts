import type { Browser, Page } from 'playwright-core';
import { http } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, buildConsole, launchChromium, login, openPage, screenshot, startConsoleServer } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The remaining fleet and system page extras in a real browser against `npm start` on a fresh demo
 * database: an international member's password reset (shown once, copied), the driver
 * licence-expiry list (an expired licence in red), a vehicle's location share link opening the
 * public page in a profile that never signed in, SPEC §7's vehicle assignments (replace terminal,
 * driver, App owner), a feedback's state and the vehicle search, each behind its code, and a
 * district fence picked from the district tree.
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
  adminToken = (await http(server.url + '/api/login', 'POST', { loginName: 'admin', password: ADMIN_PASSWORD, application: 'obd-web' }))
    .json.object.token;
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
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${entity}/query`) && r.request().method() === 'POST'),
    page.goto(path),
  ]);
  expect(response.status()).toBe(200);
}

async function search(page: Page, entity: string, keyword: string) {
  const box = page.getByTestId(`entity-page-${entity}`).getByPlaceholder('搜索关键字');
  await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${entity}/query`) && r.request().method() === 'POST'),
    box.fill(keyword).then(() => box.press('Enter')),
  ]);
}

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
    await settled(page);
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText('确定为 Lucía Fernández 重置密码？原密码将立即失效。').waitFor();
    const [reset] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/interMember/reset/${member.id}`)),
      confirm.getByRole('button', { name: /重置密码/ }).click(),
    ]);
    expect(reset.status()).toBe(200);
    const { password } = (await reset.json()) as { password: string };
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);

    const dialog = page.locator('.ant-modal-content').filter({ hasText: 'Lucía Fernández 的新密码' });
    expect(await dialog.getByTestId('reset-password-value').inputValue()).toBe(password);
    await dialog.getByText('密码已重置，请将新密码告知该会员').waitFor();
    await dialog.getByText('新密码只显示这一次，关闭后无法再次查看，请立即复制并告知该会员。').waitFor();
    // The clipboard answers only a focused document; another worker's browser may hold the focus,
    // so the copy waits until this page has it, and the dialog has finished opening.
    await page.bringToFront();
    await page.waitForFunction(() => document.hasFocus());
    await settled(page);
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
    const expired = await api('PUT', '/vehicle/driver', {
      name: '证过期',
      mobile: '13600000001',
      orgId: team,
      licenseNo: 'E2E-LIC-1',
      licenseClass: 'A2',
      licenseExpire: dayFrom(-5),
    });
    const expiring = await api('PUT', '/vehicle/driver', {
      name: '证将到',
      mobile: '13600000002',
      orgId: team,
      licenseNo: 'E2E-LIC-2',
      licenseClass: 'B2',
      licenseExpire: dayFrom(10),
    });
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { orgId: team }, pageSize: 1 })).data[0];
    await api('PUT', `/vehicle/vehicle/${vehicle.id}`, { driverId: expired.id });

    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/driver', 'driver');
    const [listed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/driver/licenses') && r.request().method() === 'POST'),
      page.getByTestId('driver-licences').click(),
    ]);
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
    const [narrowed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/driver/licenses')),
      dialog.getByTestId('licence-search').click(),
    ]);
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
    await dialog.getByTestId('share-create').waitFor();
    await settled(page);
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/share') && r.request().method() === 'POST'),
      dialog.getByTestId('share-create').click(),
    ]);
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

/** Picks the option reading `text` from the open dialog's select after typing `typed`, once `answered` saw the search's answer. */
async function pick(
  page: Page,
  dialog: ReturnType<Page['locator']>,
  typed: string,
  text: string,
  answered: (r: import('playwright-core').Response) => boolean,
) {
  await settled(page); // the dropdown takes the select's width once the dialog has opened
  await dialog.locator('.ant-select').click();
  const [found] = await Promise.all([page.waitForResponse(answered), page.keyboard.type(typed)]);
  expect(found.status()).toBe(200);
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text });
  await option.waitFor();
  await option.click();
  return found;
}

const searched = (path: string, keyword: string) => (r: import('playwright-core').Response) =>
  r.url().endsWith(path) &&
  r.request().method() === 'POST' &&
  (r.request().postDataJSON() as { criteria?: { keyword?: string } }).criteria?.keyword === keyword;

describe('vehicle assignments (SPEC §7 owner, driver, reset) and the feedback state', () => {
  it('replaces a vehicle’s terminal by a free one, showing the server’s refusal when the chosen one was bound meanwhile', async () => {
    const [vehicle, other] = (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '沪A' }, pageSize: 50 })).data.filter(
      (v: { terminalId?: number }) => v.terminalId,
    );
    const taken = await api('PUT', '/vehicle/terminal', { terminalNo: 'RPLC0001', sim: '14400990001' });
    const free = await api('PUT', '/vehicle/terminal', { terminalNo: 'RPLC0002', sim: '14400990002' });
    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/vehicleList', 'vehicle');
    await search(page, 'vehicle', vehicle.licence);
    const row = rows(page, 'vehicle').filter({ hasText: vehicle.licence });
    await row.getByTestId('row-replace-terminal').click();
    await settled(page);
    const dialog = page.locator('.ant-modal-content').filter({ hasText: `为车辆 ${vehicle.licence} 更换终端` });
    await dialog.getByText(`选中的空闲终端将替换当前终端 ${vehicle.terminalNo}`, { exact: false }).waitFor();
    await pick(page, dialog, 'RPLC', 'RPLC0001（SIM 14400990001）', (r) =>
      r.url().includes('/api/vehicle/device/terminal/suggest/vendee-0/RPLC'),
    );
    // Someone binds it to another vehicle before this dialog saves: the server refuses, in the member's language.
    await api('PUT', `/vehicle/vehicle/reset/${other.id}/${taken.id}`);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/vehicle/reset/${vehicle.id}/${taken.id}`)),
      dialog.getByRole('button', { name: /更换终端/ }).click(),
    ]);
    expect(refused.status()).toBe(406);
    await page.getByText('该终端已绑定其他车辆').first().waitFor();
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).terminalId).toBe(vehicle.terminalId);

    await pick(page, dialog, 'RPLC0002', 'RPLC0002（SIM 14400990002）', (r) =>
      r.url().includes('/api/vehicle/device/terminal/suggest/vendee-0/RPLC0002'),
    );
    await settled(page);
    await screenshot(page, 'fleet-vehicle-replace-terminal');
    const [replaced] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/vehicle/reset/${vehicle.id}/${free.id}`)),
      dialog.getByRole('button', { name: /更换终端/ }).click(),
    ]);
    expect(replaced.status()).toBe(200);
    await page
      .locator('.ant-message-notice')
      .getByText(`车辆 ${vehicle.licence} 的终端已由 ${vehicle.terminalNo} 更换为 RPLC0002`)
      .waitFor();
    await row.filter({ hasText: 'RPLC0002' }).waitFor();
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).terminalNo).toBe('RPLC0002');
    // The old terminal is free again: the bind dialog's suggest offers it.
    const old = await http(
      `${server.url}/api/vehicle/device/terminal/suggest/vendee-0/${vehicle.terminalNo}`,
      'GET',
      undefined,
      adminToken,
    );
    expect(old.json.map((t: { value: number }) => t.value)).toContain(vehicle.terminalId);
    expect(external).toEqual([]);
    await context.close();
  });

  it('assigns a driver of the vehicle’s organisation only, then clears it after confirming', async () => {
    const team = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '杭州车队' } })).data[0].id as number;
    const elsewhere = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '上海车队' } })).data[0].id as number;
    const driver = await api('PUT', '/vehicle/driver', { name: '指派司机甲', mobile: '13600000011', orgId: team });
    await api('PUT', '/vehicle/driver', { name: '指派司机乙', mobile: '13600000012', orgId: elsewhere });
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { orgId: team }, pageSize: 1 })).data[0];
    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/vehicleList', 'vehicle');
    await search(page, 'vehicle', vehicle.licence);
    const row = rows(page, 'vehicle').filter({ hasText: vehicle.licence });
    await row.getByTestId('row-driver').click();
    await settled(page);
    const dialog = page.locator('.ant-modal-content').filter({ hasText: `为车辆 ${vehicle.licence} 指派司机` });
    // Another team's driver of the same name is not offered.
    await settled(page);
    await dialog.locator('.ant-select').click();
    const [listed] = await Promise.all([
      page.waitForResponse(searched('/api/vehicle/driver/query', '指派司机')),
      page.keyboard.type('指派司机'),
    ]);
    const names = ((await listed.json()) as { data: Array<{ name: string }> }).data.map((d) => d.name);
    expect(names).toEqual(['指派司机甲']);
    expect((listed.request().postDataJSON() as { criteria: { orgId: number } }).criteria.orgId).toBe(team);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '指派司机甲（13600000011）' }).click();
    await settled(page);
    await screenshot(page, 'fleet-vehicle-driver');
    const [assigned] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/driver/${vehicle.id}/${driver.id}`)),
      dialog.getByTestId('pick-driver-save').click(),
    ]);
    expect(assigned.status()).toBe(200);
    await page.locator('.ant-message-notice').getByText(`车辆 ${vehicle.licence} 已指派司机`).waitFor();
    await row.filter({ hasText: '指派司机甲' }).waitFor();
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).driverId).toBe(driver.id);

    await row.getByTestId('row-driver').click();
    await settled(page);
    await dialog.getByTestId('pick-driver-clear').click();
    await settled(page);
    await page.locator('.ant-popconfirm').getByText(`确定取消车辆 ${vehicle.licence} 的司机 指派司机甲？`).waitFor();
    await settled(page);
    const [cleared] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/driver/${vehicle.id}/0`)),
      page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /取消指派/ })
        .click(),
    ]);
    expect(cleared.status()).toBe(200);
    await dialog.waitFor({ state: 'hidden' });
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).driverId ?? null).toBeNull();
    expect(external).toEqual([]);
    await context.close();
  });

  it('sets a vehicle’s app-account owner from the App accounts only, and clears it', async () => {
    const hd = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '上海车队' } })).data[0].id as number;
    const base = { memberType: 'orgUser', orgId: hd, expireDate: '2099-12-31', password: 'Fleet2468x', roleIds: [] };
    await api('POST', '/passport/passport/register', {
      ...base,
      loginName: 'owner.app.e2e',
      name: '车主App',
      applications: ['vehicle-app'],
    });
    await api('POST', '/passport/passport/register', { ...base, loginName: 'owner.web.e2e', name: '车主Web', applications: ['obd-web'] });
    const owner = (await api('POST', '/passport/member/query', { criteria: { keyword: 'owner.app.e2e' } })).data[0];
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { orgId: hd }, pageSize: 1 })).data[0];
    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/vehicleList', 'vehicle');
    await search(page, 'vehicle', vehicle.licence);
    const row = rows(page, 'vehicle').filter({ hasText: vehicle.licence });
    await row.getByTestId('row-owner').click();
    await settled(page);
    const dialog = page.locator('.ant-modal-content').filter({ hasText: `车辆 ${vehicle.licence} 的 App 车主` });
    await settled(page);
    // No owner yet: nothing to clear.
    await dialog.locator('.ant-select').waitFor();
    expect(await dialog.getByTestId('pick-owner-clear').count()).toBe(0);
    await dialog.locator('.ant-select').click();
    // The web-only account matches the text too, but is no App account.
    const [listed] = await Promise.all([
      page.waitForResponse(searched('/api/passport/member/query', 'owner.')),
      page.keyboard.type('owner.'),
    ]);
    expect(((await listed.json()) as { data: Array<{ loginName: string }> }).data.map((m) => m.loginName)).toEqual(['owner.app.e2e']);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '车主App（owner.app.e2e）' }).click();
    await settled(page);
    await screenshot(page, 'fleet-vehicle-owner');
    const [set] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/vehicle/${vehicle.id}/${owner.id}`)),
      dialog.getByTestId('pick-owner-save').click(),
    ]);
    expect(set.status()).toBe(200);
    expect(((await set.json()) as { ownerMemberId: number }).ownerMemberId).toBe(owner.id);
    await page.locator('.ant-message-notice').getByText(`车辆 ${vehicle.licence} 的车主已设置`).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Opened again, it shows the owner the server has.
    await row.getByTestId('row-owner').click();
    await settled(page);
    await dialog.locator('.ant-select-selection-item').getByText('车主App（owner.app.e2e）').waitFor();
    await dialog.getByTestId('pick-owner-clear').click();
    await settled(page);
    await page.locator('.ant-popconfirm').getByText(`确定清除车辆 ${vehicle.licence} 的 App 车主？`).waitFor();
    await settled(page);
    const [cleared] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/vehicle/${vehicle.id}/0`)),
      page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /清除车主/ })
        .click(),
    ]);
    expect(cleared.status()).toBe(200);
    expect(((await cleared.json()) as { ownerMemberId: number | null }).ownerMemberId).toBeNull();
    await page.locator('.ant-message-notice').getByText(`车辆 ${vehicle.licence} 的车主已清除`).waitFor();
    expect(external).toEqual([]);
    await context.close();
  });

  it('changes a feedback’s state in its row', async () => {
    const item = await api('POST', '/vehicle/feedback', { title: '地图加载慢E2E', content: '监控页地图加载较慢' });
    const { page, context, external } = await adminPage();
    await openList(page, '/operation/feedback', 'feedback');
    await search(page, 'feedback', '地图加载慢E2E');
    const row = rows(page, 'feedback').filter({ hasText: '地图加载慢E2E' });
    const state = row.getByTestId('row-feedback-state');
    await state.getByText('待处理').waitFor();
    await state.click();
    const [changed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/feedback/${item.id}/processing`) && r.request().method() === 'PUT'),
      page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '处理中' }).click(),
    ]);
    expect(changed.status()).toBe(200);
    await page.locator('.ant-message-notice').getByText('反馈“地图加载慢E2E”已改为处理中').waitFor();
    await state.getByText('处理中').waitFor();
    await screenshot(page, 'operation-feedback-state');
    expect((await api('GET', `/vehicle/feedback/${item.id}`)).status).toBe('processing');
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('the assignment actions’ codes', () => {
  it('hides replace terminal, driver, owner and the feedback state from a member without vehicle-bind, vehicle-edit and feedback-handle', async () => {
    const flat = (tree: Array<{ id: number; code: string; children?: unknown[] }>): Array<{ id: number; code: string }> =>
      tree.flatMap((r) => [r, ...flat((r.children ?? []) as typeof tree)]);
    const codes = ['fleet', 'fleet-vehicleList', 'vehicle-unbind', 'operation', 'operation-feedback'];
    const all = flat(await api('GET', '/passport/resource/all'));
    const hd = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '华东物流' } })).data[0].id;
    const role = await api('POST', '/passport/role', {
      name: '只能解绑',
      orgId: hd,
      resourceIds: all.filter((r) => codes.includes(r.code)).map((r) => r.id),
    });
    await api('POST', '/passport/passport/register', {
      loginName: 'unbind.only',
      name: '只能解绑',
      memberType: 'orgUser',
      orgId: hd,
      expireDate: '2099-12-31',
      password: 'Fleet2468x',
      roleIds: [role.id],
    });
    const first = (
      await http(server.url + '/api/login', 'POST', { loginName: 'unbind.only', password: 'Fleet2468x', application: 'obd-web' })
    ).json.object.token as string;
    expect(
      (
        await http(
          server.url + '/api/passport/member/change-password',
          'POST',
          { oldPassword: 'Fleet2468x', newPassword: 'Fleet#13579z' },
          first,
        )
      ).status,
    ).toBe(200);
    await api('POST', '/vehicle/feedback', { title: '无权处理E2E', content: '只能看', orgId: hd });
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '沪A' }, pageSize: 50 })).data.find(
      (v: { terminalId?: number }) => v.terminalId,
    );

    const { page, context } = await openPage(browser, server.url, 'zh-CN');
    await login(page, 'unbind.only', 'Fleet#13579z');
    await page.getByTestId('user-menu').waitFor();
    await openList(page, '/fleet/vehicleList', 'vehicle');
    await search(page, 'vehicle', vehicle.licence);
    const row = rows(page, 'vehicle').filter({ hasText: vehicle.licence });
    // The row is drawn with the action this member holds, and none of the others.
    await row.getByTestId('row-unbind').waitFor();
    for (const id of ['row-replace-terminal', 'row-driver', 'row-owner', 'row-bind']) expect(await row.getByTestId(id).count()).toBe(0);
    await openList(page, '/operation/feedback', 'feedback');
    await rows(page, 'feedback').filter({ hasText: '无权处理E2E' }).waitFor();
    expect(await page.getByTestId('row-feedback-state').count()).toBe(0);
    await context.close();
  });
});

describe('district fences', () => {
  it('picks the district from the district tree, refuses saving without one, and the server stores its code', async () => {
    const { page, context, external } = await adminPage();
    await openList(page, '/fleet/fence', 'fence');
    await page.getByTestId('entity-add').click();
    // The dialog holds the map editor until the type is a district, then the district picker.
    const form = page
      .locator('.ant-drawer-content, .ant-modal-content')
      .filter({ has: page.locator('[data-testid=fence-editor], [data-testid=fence-district]') });
    await form.waitFor();
    const item = (label: string) => form.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
    await item('围栏名称').locator('input').fill('浦东新区围栏');
    await item('围栏类型').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '行政区划' }).first().click();
    const picker = page.getByTestId('fence-district');
    await picker.getByText('在行政区划树中选择省、市或区县（可按名称搜索）；开启前需上传其边界。').waitFor();

    // Nothing chosen: refused on the field, in the console's language, before any call.
    let saves = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/vehicle/fence') && r.method() === 'PUT') saves++;
    });
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await item('围栏范围').locator('.ant-form-item-explain-error').getByText('行政区划围栏需要选择行政区划').waitFor();
    expect(saves).toBe(0);

    // The tree is the server's; a search by name opens the branches down to the county.
    await settled(page);
    await picker.locator('.ant-select').click();
    await page.keyboard.type('浦东');
    const county = page.locator('.ant-select-dropdown:visible .ant-select-tree-title').filter({ hasText: /^浦东新区$/ });
    await county.waitFor();
    await screenshot(page, 'fence-district-tree');
    await county.click();
    await page.waitForSelector('[data-testid=fence-district][data-code="310115"]');
    await picker.getByTestId('fence-district-chosen').getByText('已选 上海市 / 市辖区 / 浦东新区（代码 310115）').waitFor();
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/fence') && r.request().method() === 'PUT'),
      form.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(saved.status()).toBe(201);
    const body = (await saved.json()) as { id: number; fenceType: string; geometry: unknown };
    expect(body.fenceType).toBe('district');
    expect(body.geometry).toEqual({ districtCode: '310115' });
    expect(((await api('GET', `/vehicle/fence/${body.id}`)) as { geometry: unknown }).geometry).toEqual({ districtCode: '310115' });

    // Editing it shows the stored district, found in the tree.
    const row = rows(page, 'fence').filter({ hasText: '浦东新区围栏' });
    await row.getByTestId('row-edit').click();
    await settled(page);
    await page.waitForSelector('[data-testid=fence-district][data-code="310115"]');
    await page.getByTestId('fence-district-chosen').getByText('已选 上海市 / 市辖区 / 浦东新区（代码 310115）').waitFor();
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('vehicle search (SPEC §7 vehicle/query/{x})', () => {
  it('finds another vehicle by part of its VIN from a vehicle’s detail and opens its detail in a tab named by its licence; an over-long text asks nothing', async () => {
    const [from, to] = (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '浙A' }, pageSize: 2 })).data as Array<{
      id: number;
      licence: string;
      vin: string;
    }>;
    const part = to.vin.slice(3, 11);
    const { page, context, external } = await adminPage();
    await page.goto(`/vehicleDetail/vehicleDetail/${from.id}`);
    await page.getByTestId('detail-licence').getByText(from.licence).waitFor();
    let asked = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/vehicle/vehicle/query/')) asked++;
    });
    await page.getByTestId('detail-find').click();
    await page.keyboard.type('X'.repeat(21));
    await page.locator('.ant-select-dropdown:visible').getByText('最多 20 个字符').waitFor();
    expect(asked).toBe(0);
    for (let i = 0; i < 21; i++) await page.keyboard.press('Backspace');
    const [found] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/vehicle/vehicle/query/${part}`)),
      page.keyboard.type(part),
    ]);
    expect(found.status()).toBe(200);
    expect(((await found.json()) as Array<{ value: number }>).map((v) => v.value)).toContain(to.id);
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: `${to.licence}（VIN ${to.vin}）` });
    await option.waitFor();
    await screenshot(page, 'vehicle-detail-find');
    await option.click();
    await page.waitForURL(`**/vehicleDetail/vehicleDetail/${to.id}`);
    await page.getByTestId('detail-licence').getByText(to.licence).waitFor();
    // Each vehicle's detail keeps a tab of its own, named by its licence once its page has it.
    const tabs = page.locator('.fs-tags .ant-tabs-tab');
    await tabs.filter({ hasText: to.licence }).waitFor();
    expect(await tabs.allInnerTexts()).toEqual(expect.arrayContaining([from.licence, to.licence]));
    await page.waitForFunction((title) => document.title === title, `${to.licence} - 车管星`);
    expect(external).toEqual([]);
    await context.close();
  });
});
