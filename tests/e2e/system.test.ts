import type { Locator, Page } from 'playwright-core';
import { http } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, flatTree, login, screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The system administration pages in a real browser against `npm start` on a fresh demo database:
 * organisations, roles and their authorise dialog, accounts (register, reset password, simulate
 * login), Action codes hiding buttons and the server's 403 when a grant is gone (SPEC.md §2–§8).
 */
jest.setTimeout(180_000);

const suite = useConsoleSuite();
const { api, tokenOf } = suite;

interface Resource {
  id: number;
  code: string;
  children?: Resource[];
}

const flat = (tree: Resource[]) => flatTree(tree);

/** A member with a role of exactly these resources, past the first-sign password change. */
async function memberWith(loginName: string, codes: string[]) {
  const all = flat(await api('GET', '/passport/resource/all'));
  const hd = (await api('POST', '/vehicle/org/query', { criteria: { keyword: '华东物流' } })).data[0].id;
  const role = await api('POST', '/passport/role', {
    name: `${loginName} 的角色`,
    orgId: hd,
    resourceIds: all.filter((r) => codes.includes(r.code)).map((r) => r.id),
  });
  await api('POST', '/passport/passport/register', {
    loginName,
    name: loginName,
    memberType: 'orgUser',
    orgId: hd,
    expireDate: '2099-12-31',
    password: 'Fleet2468x',
    roleIds: [role.id],
  });
  await api(
    'POST',
    '/passport/member/change-password',
    { oldPassword: 'Fleet2468x', newPassword: 'Fleet#13579z' },
    await tokenOf(loginName, 'Fleet2468x'),
  );
  return { role, password: 'Fleet#13579z', ids: (wanted: string[]) => all.filter((r) => wanted.includes(r.code)).map((r) => r.id) };
}

/** Signed in as someone in a fresh browser profile, on the given page. */
async function signedIn(loginName: string, password: string, path: string, locale = 'zh-CN') {
  const opened = await suite.freshPage(locale);
  await login(opened.page, loginName, password);
  await opened.page.getByTestId('user-menu').waitFor();
  await opened.page.goto(path);
  return opened;
}

const row = (page: Page, text: string) => page.locator('tr.ant-table-row').filter({ hasText: text });
const dialog = (page: Page, title: string) => page.locator('.ant-modal:visible').filter({ hasText: title });
/** A dialog once it has finished opening: a click during its zoom-in can miss what it aims at. */
async function opened(page: Page, title: string): Promise<Locator> {
  const found = dialog(page, title);
  await found.waitFor();
  await settled(page);
  return found;
}
/** A form item of a dialog by its exact label. */
const field = (scope: Locator, label: string) =>
  scope.locator('.ant-form-item').filter({ has: scope.page().locator('label', { hasText: new RegExp(`^${label}$`) }) });
const input = (scope: Locator, label: string) => field(scope, label).locator('input').first();
/** A dialog's submit button (whatever its loading state makes of its accessible name). */
const ok = (scope: Locator) => scope.locator('.ant-modal-footer .ant-btn-primary');
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();
/** Confirms the open Popconfirm and waits until it has gone (its fade would overlap the next one). */
async function confirmPopover(page: Page) {
  await settled(page);
  await page
    .locator('.ant-popconfirm:visible')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await page.waitForFunction(() => !document.querySelector('.ant-popconfirm:not(.ant-popover-hidden)'));
}

describe('organisations', () => {
  it('shows the nested tree, adds a child and refuses to delete one that still has children', async () => {
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/system/org');
    await row(page, '上海车队').waitFor();
    // Platform → client → fleet: three levels, opened.
    expect(await row(page, '车管星平台').getAttribute('class')).toContain('ant-table-row-level-0');
    expect(await row(page, '华东物流有限公司').getAttribute('class')).toContain('ant-table-row-level-1');
    expect(await row(page, '上海车队').getAttribute('class')).toContain('ant-table-row-level-2');
    await screenshot(page, 'system-org-tree');

    await row(page, '华东物流有限公司').getByText('新增下级').click();
    const form = await opened(page, '新增组织');
    // SPEC.md §5: name and code are required; the phone follows the phone rule.
    await ok(form).click();
    await form.getByText('组织名称不能为空').waitFor();
    await form.getByText('组织代码不能为空').waitFor();
    // The system flag says what it grants where it is chosen.
    await field(form, '系统组织').getByText('其管理员拥有全部菜单和功能权限').waitFor();
    await input(form, '组织名称').fill('南京车队');
    await input(form, '组织代码').fill('HD-NJ');
    await input(form, '联系电话').fill('12345');
    await ok(form).click();
    await form.getByText('联系电话格式不正确').waitFor();
    await input(form, '联系电话').fill('02588880001');
    await ok(form).click();
    await toast(page, '添加成功！');
    await row(page, '南京车队').waitFor();
    expect(await row(page, '南京车队').getAttribute('class')).toContain('ant-table-row-level-2');

    await row(page, '华东物流有限公司').getByText('删除', { exact: true }).click();
    await confirmPopover(page);
    await toast(page, '该组织下还有子组织，无法删除');
    await row(page, '南京车队').getByText('删除', { exact: true }).click();
    await confirmPopover(page);
    await toast(page, '删除成功！');
    await row(page, '南京车队').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('roles', () => {
  it('takes a menu away in the authorise dialog, and the member with that role no longer sees it', async () => {
    const sidebarHasMonitor = async (page: Page) => {
      await page.goto('/fleet/vehicleList');
      await page.getByTestId('sidebar-menu').getByText('车辆管理').waitFor();
      return page.getByTestId('sidebar-menu').getByText('实时监控').count();
    };
    const before = await signedIn('sh-dispatcher', ADMIN_PASSWORD, '/dashboard');
    expect(await sidebarHasMonitor(before.page)).toBe(1);
    await before.context.close();

    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/system/role');
    await row(page, '调度员').getByText('授权').click();
    const dlg = await opened(page, '角色授权：调度员');
    const node = (code: string) => dlg.locator('.ant-tree-treenode').filter({ has: page.locator(`[data-code="${code}"]`) });
    const monitor = node('fleet-monitor');
    await monitor.waitFor();
    expect(await monitor.locator('.ant-tree-checkbox-checked').count()).toBe(1);
    // The area above a granted page is drawn half-checked: the server adds it by itself.
    expect(await node('fleet').locator('.ant-tree-checkbox-indeterminate').count()).toBe(1);
    await screenshot(page, 'system-authorize');
    await monitor.locator('.ant-tree-checkbox').click();
    expect(await monitor.locator('.ant-tree-checkbox-checked').count()).toBe(0);
    await dlg.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '角色权限修改成功');
    await context.close();

    const after = await signedIn('sh-dispatcher', ADMIN_PASSWORD, '/dashboard');
    expect(await sidebarHasMonitor(after.page)).toBe(0);
    await after.page.goto('/fleet/monitor');
    await after.page.waitForURL('**/404');
    await after.context.close();
  });
});

describe('accounts', () => {
  it('registers an account after a bad mobile and a taken login name, resets its password, and the new one signs in', async () => {
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/system/account');
    await row(page, 'hd-manager').waitFor();
    await page.getByRole('button', { name: /注册账号/ }).click();
    const form = await opened(page, '注册账号');
    await ok(form).click();
    await form.getByText('登录名不能为空').waitFor();
    // No expiry is allowed (an account that never expires, as the seeded ones), and the form says so.
    await form.getByText('留空表示账号永不过期').waitFor();
    expect(await form.getByText('到期日期不能为空').count()).toBe(0);
    await input(form, '登录名').fill('hd-manager');
    await input(form, '姓名').fill('赵六');
    await input(form, '手机号').fill('1391688');
    // The password rules show beside the password while it is typed, as in the change dialog.
    await input(form, '密码').fill('123456');
    await page.locator('[data-testid=password-rules] [data-rule]').first().waitFor();
    expect(await page.locator('[data-testid=password-rules] [data-ok=false]').count()).toBeGreaterThan(0);
    await input(form, '密码').fill('Start2026x');
    await input(form, '确认密码').fill('Start2026y');
    await ok(form).click();
    await form.getByText('手机号格式不正确').waitFor();
    await form.getByText('两次输入的密码不一致，请重新输入').waitFor();
    await input(form, '手机号').fill('13916880199');
    await input(form, '确认密码').fill('Start2026x');
    await ok(form).click();
    // The server's answer lands on its field and in the toast.
    await toast(page, '登录名已存在');
    await form.getByText('登录名已存在').waitFor();
    await input(form, '登录名').fill('zhao.liu');
    await ok(form).click();
    await toast(page, '添加成功！');
    await row(page, 'zhao.liu').waitFor();
    const registered = await api('POST', '/passport/member/query', { criteria: { keyword: 'zhao.liu' } });
    expect(registered.data[0]).toMatchObject({ loginName: 'zhao.liu', expireDate: null });
    await page.waitForFunction(() => !document.querySelector('.ant-message-notice'), undefined, { timeout: 10_000 });
    await screenshot(page, 'system-accounts');

    await row(page, 'zhao.liu').getByText('重置密码').click();
    const reset = await opened(page, '重置密码：赵六');
    await input(reset, '新密码').fill('Reset#2468x');
    await input(reset, '确认密码').fill('Reset#2468x');
    await ok(reset).click();
    await toast(page, '密码重置成功');
    await context.close();

    // The old password no longer opens the account; the new one does (and asks for a change).
    expect((await http(suite.server.url + '/api/login', 'POST', { loginName: 'zhao.liu', password: 'Start2026x' })).json.success).toBe(
      false,
    );
    const member = await suite.freshPage();
    await login(member.page, 'zhao.liu', 'Reset#2468x');
    await member.page.getByTestId('user-menu').getByText('赵六').waitFor();
    await member.page.locator('.ant-modal').getByText('首次登录，请修改密码后重新登录').waitFor();
    await member.context.close();
  });

  it('hides an action whose code the member lacks: simulate login for the clerk, shown for the admin', async () => {
    await memberWith('acct.clerk', ['system', 'system-account', 'member-edit', 'member-resetpassword']);
    const clerk = await signedIn('acct.clerk', 'Fleet#13579z', '/system/account');
    await row(clerk.page, 'sh-dispatcher').getByText('编辑').waitFor();
    expect(await row(clerk.page, 'sh-dispatcher').getByText('重置密码').count()).toBe(1);
    expect(await clerk.page.getByTestId('simulate-login').count()).toBe(0);
    expect(await clerk.page.getByRole('button', { name: /注册账号/ }).count()).toBe(0);
    await clerk.context.close();

    const admin = await signedIn('admin', ADMIN_PASSWORD, '/system/account');
    await row(admin.page, 'sh-dispatcher').getByTestId('simulate-login').waitFor();
    // Not on one's own row: the server refuses simulating oneself.
    expect(await row(admin.page, '系统管理员').getByTestId('simulate-login').count()).toBe(0);
    await admin.context.close();
  });

  it("answers '没有权限！' when the member's grant was taken away after the menus loaded", async () => {
    const clerk = await memberWith('acct.editor', ['system', 'system-account', 'member-edit']);
    const { page, context } = await signedIn('acct.editor', clerk.password, '/system/account');
    await row(page, 'sh-dispatcher').getByText('编辑').waitFor();
    await api('PUT', `/passport/role/${clerk.role.id}/authorize`, { resourceIds: clerk.ids(['system', 'system-account']) });
    await row(page, 'sh-dispatcher').getByText('编辑').click();
    const form = await opened(page, '编辑账号');
    await input(form, '姓名').fill('李明二');
    await ok(form).click();
    await toast(page, '没有权限！');
    expect((await api('POST', '/passport/member/query', { criteria: { loginName: 'sh-dispatcher' } })).data[0].name).toBe('李明');
    await context.close();
  });

  it('simulates login from the accounts page, switching user and menus, and simulate logout restores the admin', async () => {
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/system/account');
    await row(page, 'hn-manager').waitFor();
    const topMenus = async () => (await page.locator('[data-testid=sidebar-menu] > li').allInnerTexts()).map((text) => text.split('\n')[0]);
    const adminMenus = await topMenus();
    expect(adminMenus).toContain('运营管理');
    await row(page, 'hn-manager').getByTestId('simulate-login').click();
    await confirmPopover(page);
    await page.getByTestId('user-menu').getByText('张伟').waitFor();
    // A banner, not a small tag: whose account this is, and who is really acting.
    await page
      .getByTestId('impersonation-banner')
      .getByText('正在模拟登录：您现在看到的是 张伟（hn-manager）的菜单和数据，所做操作都记在您（系统管理员）名下。')
      .waitFor();
    const simulated = await topMenus();
    expect(simulated).not.toContain('运营管理');
    expect(simulated).toContain('系统管理');

    // The user menu offers the way back too; the banner's button is the one in sight.
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown:visible').getByText('退出模拟登录').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('impersonation-return').click();
    await toast(page, '模拟登录退出成功');
    // Back where the admin was, not on the dashboard.
    await page.waitForURL('**/system/account');
    await page.getByTestId('user-menu').getByText('系统管理员').waitFor();
    await page.locator('[data-testid=sidebar-menu] > li').filter({ hasText: '运营管理' }).first().waitFor();
    expect(await page.getByTestId('impersonation-banner').count()).toBe(0);
    expect(await topMenus()).toEqual(adminMenus);
    await context.close();
  });
});

describe('menus', () => {
  it('adds a child menu under a menu, edits it with its parent picker, and deletes it', async () => {
    const system = flat(await api('GET', '/passport/resource/all')).find((r) => r.code === 'system');
    if (!system) throw new Error('the demo has no system menu');
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/system/menu');
    const web = page.getByTestId('menu-page-obd-web');
    const systemRow = web.locator(`tr.ant-table-row[data-row-key="${system.id}"]`);
    await systemRow.getByTestId('menu-add-child').click();

    // The child starts under the row, as a menu ordered first.
    const add = await opened(page, '新增菜单');
    await field(add, '上级资源').getByText('系统管理').waitFor();
    expect(await input(add, '排序').inputValue()).toBe('0');
    // An action has no route, icon or tab settings: those fields follow the kind chosen.
    await field(add, '类型').getByText('功能').click();
    await field(add, '路由地址').waitFor({ state: 'detached' });
    await field(add, '类型').getByText('菜单').click();
    await field(add, '路由地址').waitFor();
    await input(add, '资源名称').fill('测试菜单');
    await input(add, '资源编码').fill('bad code');
    await ok(add).click();
    await field(add, '资源编码').locator('.ant-form-item-explain-error').waitFor();
    await input(add, '资源编码').fill('e2e-menu');
    await input(add, '图标').fill('SettingOutlined');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/passport/resource') && r.request().method() === 'POST'),
      ok(add).click(),
    ]);
    expect(created.status()).toBe(201);
    expect(created.request().headers()['x-authority']).toBe('resource-add');
    const child = (await created.json()) as Resource & { parentId: number; icon: string; kind: string };
    expect({ parentId: child.parentId, icon: child.icon, kind: child.kind }).toEqual({
      parentId: system.id,
      icon: 'SettingOutlined',
      kind: 'Menu',
    });
    await add.waitFor({ state: 'hidden' });
    const childRow = web.locator(`tr.ant-table-row[data-row-key="${child.id}"]`);
    await childRow.getByText('测试菜单').waitFor();

    // Edit: the parent picker cannot choose the menu itself; the new name shows in the tree.
    await childRow.getByTestId('row-edit').click();
    const edit = await opened(page, '编辑菜单');
    expect(await input(edit, '资源名称').inputValue()).toBe('测试菜单');
    await field(edit, '上级资源').locator('.ant-select-selector').click();
    await page.locator('.ant-select-dropdown:visible').waitFor();
    await settled(page);
    // The picker opens collapsed; a search opens the branch that matches.
    await field(edit, '上级资源').locator('input').pressSequentially('测试菜单');
    const own = page.locator('.ant-select-dropdown:visible .ant-select-tree-treenode').filter({ hasText: '测试菜单' });
    await own.waitFor();
    expect(await own.getAttribute('class')).toContain('ant-select-tree-treenode-disabled');
    // Closed by a click elsewhere in the dialog (Esc would close the dialog itself).
    await edit.locator('.ant-modal-title').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await input(edit, '资源名称').fill('测试菜单改');
    const [updated] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/passport/resource/${child.id}`) && r.request().method() === 'PUT'),
      ok(edit).click(),
    ]);
    expect(updated.status()).toBe(200);
    expect(updated.request().postDataJSON()).toEqual({ name: '测试菜单改' });
    await childRow.getByText('测试菜单改').waitFor();

    // Delete, after confirming: gone from the tree and from the server.
    await childRow.getByTestId('row-remove').click();
    await settled(page);
    const confirm = page.locator('.ant-popconfirm:visible').filter({ hasText: '确定删除“测试菜单改”吗？删除后不可恢复。' });
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await page.locator('.ant-message-notice').getByText('删除成功！').waitFor();
    await childRow.waitFor({ state: 'detached' });
    expect(flat(await api('GET', '/passport/resource/all')).some((r) => r.id === child.id)).toBe(false);

    // The App's tree is its own: loaded with its application header, its rows in its own tab.
    const [appTree] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith('/api/passport/resource/all') && r.request().headers()['x-application-code'] === 'vehicle-app',
      ),
      page.getByRole('tab', { name: '车管星 App' }).click(),
    ]);
    const appRoots = (await appTree.json()) as Resource[];
    expect(appRoots.length).toBeGreaterThan(0);
    await page
      .getByTestId('menu-page-vehicle-app')
      .locator(`tr.ant-table-row[data-row-key="${appRoots[0].id}"]`)
      .getByTestId('row-edit')
      .waitFor();
    await context.close();
  });
});

describe('every system page in every language', () => {
  it.each(['zh-CN', 'en-US', 'es-ES', 'ja-JP'])('renders in %s with no missing key and no script error', async (lang) => {
    const { page, context } = await signedIn('admin', ADMIN_PASSWORD, '/dashboard', lang);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    for (const p of ['org', 'role', 'account', 'appAccount', 'menu', 'log']) {
      await page.goto(`/system/${p}`);
      await page.locator('.ant-table-row, .ant-table-placeholder').first().waitFor();
      const text = await page.locator('.fs-content').innerText();
      expect({ page: p, keys: text.match(/\b(console|passport|org|common|validation)\.[a-zA-Z][\w.-]*/g) }).toEqual({
        page: p,
        keys: null,
      });
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
