import type { Page } from 'playwright-core';
import { translate } from '../../schemas/kit/catalogue';
import { http } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, flatTree, gzipSizeOf, login, screenshot, storageDump, useConsoleSuite } from './helpers/console';
import { CATALOGUE_MARK, filesHolding, LATER_CODE } from './helpers/bundle';
import { settled } from './helpers/pageChecks';

/**
 * The console shell in a real browser against `npm start` on a fresh database (SPEC.md §2, §4, §5,
 * §8). One console build, one server and one browser serve every test of this file.
 */
jest.setTimeout(180_000);

const suite = useConsoleSuite();
const { api, adminPage, freshPage } = suite;

interface Resource {
  id: number;
  code: string;
  kind: string;
  children?: Resource[];
}

const flat = (tree: Resource[]) => flatTree(tree);

async function register(loginName: string, password: string, roleIds: number[] = []) {
  await api('POST', '/passport/passport/register', {
    loginName,
    name: loginName,
    memberType: 'orgUser',
    expireDate: '2099-12-31',
    password,
    roleIds,
  });
}

const sidebarTitles = (page: Page) => page.locator('[data-testid=sidebar-menu] > li').allInnerTexts();
const tabTitles = (page: Page) => page.locator('.fs-tags .ant-tabs-tab').allInnerTexts();

describe('login', () => {
  it('loads under 500 KB of gzipped script with one language and no chart, map, validator or pro-components code, from our server only', async () => {
    const { page, context, external } = await freshPage();
    const scripts: string[] = [];
    page.on('response', (r) => r.url().endsWith('.js') && scripts.push(r.url()));
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByText('记住登录名').waitFor();
    expect(gzipSizeOf(suite.consoleDir, scripts)).toBeLessThan(500 * 1024);
    const files = scripts.map((u) => new URL(u).pathname.slice(1));
    expect(filesHolding(suite.consoleDir, files, CATALOGUE_MARK)).toHaveLength(1);
    for (const mark of Object.values(LATER_CODE)) expect(filesHolding(suite.consoleDir, files, mark)).toEqual([]);
    expect(external).toEqual([]);
    await screenshot(page, 'login');
    await context.close();
  });

  it('refuses a wrong password with the server message, then signs in', async () => {
    const { page, context } = await freshPage();
    await login(page, 'admin', 'Wrong2026x');
    await page.getByTestId('login-error').getByText('用户名或密码错误').waitFor();
    await page.locator('#password').fill(ADMIN_PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.waitForURL('**/dashboard');
    await page.getByTestId('user-menu').getByText('系统管理员').waitFor();
    expect(await storageDump(page)).not.toContain(ADMIN_PASSWORD);
    // With a token, /login goes home.
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    await screenshot(page, 'shell-zh-CN');
    await context.close();
  });

  it('checks the login form with the SPEC.md messages', async () => {
    const { page, context } = await freshPage();
    await page.goto('/login');
    await page.locator('button[type=submit]').click();
    await page.getByText('登录名不能为空').waitFor();
    await page.getByText('登录密码不能为空').waitFor();
    await context.close();
  });

  it('/login/{u}/{p} signs in and leaves the password nowhere', async () => {
    const { page, context } = await freshPage();
    const seen: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && seen.push(f.url()));
    await page.goto(`/login/admin/${ADMIN_PASSWORD}`);
    await page.waitForURL('**/dashboard');
    expect(page.url()).not.toContain(ADMIN_PASSWORD);
    expect(await storageDump(page)).not.toContain(ADMIN_PASSWORD);
    expect(await page.evaluate(() => JSON.stringify(history.state))).not.toContain(ADMIN_PASSWORD);
    // Back does not return to the address with the password: it was replaced.
    await page.goBack().catch(() => undefined);
    expect(page.url()).not.toContain(ADMIN_PASSWORD);
    await context.close();
  });
});

describe('password flows', () => {
  it('forces the change on the first sign-in, then logs out', async () => {
    await register('first.sign', 'Fleet2468x');
    const { page, context } = await freshPage();
    await login(page, 'first.sign', 'Fleet2468x');
    const dialog = page.locator('.ant-modal').filter({ hasText: '修改密码' });
    await dialog.getByText('首次登录，请修改密码后重新登录').waitFor();
    expect(await dialog.locator('.ant-modal-close').count()).toBe(0);
    const inputs = dialog.locator('input[type=password]');
    await inputs.nth(0).fill('Fleet2468x');
    await inputs.nth(1).fill('abc');
    // The rules popover lives in a portal outside the dialog.
    await page.getByTestId('password-rules').waitFor();
    expect(await dialog.getByTestId('strength-meter').getAttribute('data-strength')).toBe('weak');
    await inputs.nth(1).fill('Fleet#97531x');
    expect(await dialog.getByTestId('strength-meter').getAttribute('data-strength')).toBe('strong');
    await inputs.nth(2).fill('Fleet#97531x');
    await screenshot(page, 'change-password');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL('**/login');
    await login(page, 'first.sign', 'Fleet#97531x');
    // No role, no pages: the shell stays at / with nothing forced on the member any more.
    await page.getByTestId('user-menu').waitFor();
    expect(await page.locator('.ant-modal').filter({ hasText: '修改密码' }).count()).toBe(0);
    await context.close();
  });

  it('sends a weak password to /password/weak and changes it there', async () => {
    await register('weak.one', 'aaa111');
    const { page, context } = await freshPage();
    await login(page, 'weak.one', 'aaa111');
    await page.waitForURL('**/password/weak');
    await page.getByTestId('change-password-form').waitFor();
    const inputs = page.locator('input[type=password]');
    await inputs.nth(0).fill('aaa111');
    await inputs.nth(1).fill('Fleet#86420y');
    await inputs.nth(2).fill('Fleet#86420y');
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login(\?|$)/);
    await login(page, 'weak.one', 'Fleet#86420y');
    await page.getByTestId('user-menu').waitFor();
    await context.close();
  });
});

describe('menus from the server', () => {
  it('shows a member with a smaller role fewer menus', async () => {
    const all = flat(await api('GET', '/passport/resource/all'));
    const ids = all.filter((r) => ['dashboard', 'fleet', 'fleet-brand', 'vehicleBrand-add'].includes(r.code)).map((r) => r.id);
    const role = await api('POST', '/passport/role', { name: '品牌维护', resourceIds: ids });
    await register('brand.keeper', 'Fleet2468x', [role.id]);
    await api(
      'POST',
      '/passport/member/change-password',
      { oldPassword: 'Fleet2468x', newPassword: 'Fleet#13579z' },
      await suite.tokenOf('brand.keeper', 'Fleet2468x'),
    );

    const admin = await adminPage();
    const adminMenus = await sidebarTitles(admin.page);
    await admin.context.close();

    const { page, context } = await freshPage();
    await login(page, 'brand.keeper', 'Fleet#13579z');
    await page.waitForURL('**/dashboard');
    expect(await sidebarTitles(page)).toEqual(['仪表盘', '车队管理']);
    expect(adminMenus.length).toBeGreaterThan(5);
    // A menu the role lacks is no route for this member.
    await page.goto('/system/role');
    await page.waitForURL('**/404');
    await context.close();
  });

  it('redirects an unknown path to /404', async () => {
    const { page, context } = await adminPage();
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await page.getByText('抱歉，您访问的页面不存在').waitFor();
    await context.close();
  });

  it('finds a menu by a misspelt title in the header search', async () => {
    const { page, context } = await adminPage();
    await page.locator('.fs-header-search input').fill('角色管里');
    await page.locator('.ant-select-item-option').filter({ hasText: '角色管理' }).first().click();
    await page.waitForURL('**/system/role');
    await context.close();
  });
});

/**
 * Runs a tab's context-menu command and waits for its effect. The menu slides in, and antd closes it
 * when anything under it re-renders or scrolls (a settling list, the live dashboard): like a user, wait
 * until the menu stands still before choosing, and open it again if it closed under the pointer.
 */
async function tabCommand(page: Page, path: string, label: string, effect?: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.locator(`.fs-tags [data-path="${path}"]`).click({ button: 'right' });
    try {
      const menu = page.locator('.ant-dropdown:visible');
      await menu.getByText(label).waitFor({ timeout: 10_000 });
      // rc-motion tags the menu with its motion name only while it moves.
      await page.locator('.ant-dropdown.ant-slide-up').waitFor({ state: 'detached', timeout: 10_000 });
      await menu.getByText(label).click({ timeout: 10_000 });
      await effect?.();
      return;
    } catch (e) {
      if (attempt === 5) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Waits until the tag bar holds `count` tabs. */
const tabsLeft = (page: Page, count: number) => () =>
  page.waitForFunction((n) => document.querySelectorAll('.fs-tags [data-path]').length === n, count, { timeout: 10_000 });

describe('tag tabs', () => {
  it('closes others and all from the context menu, never the affix tab', async () => {
    const { page, context } = await adminPage();
    for (const p of ['/system/role', '/system/org', '/fleet/brand']) {
      await page.evaluate((path) => window.history.pushState(null, '', path), p);
      await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
      await page.waitForURL('**' + p);
    }
    expect(await tabTitles(page)).toEqual(['仪表盘', '角色管理', '组织管理', '车辆品牌']);
    // The pages are real lists now: let the last one finish loading, as a user would see it.
    await page.locator('[data-view="/fleet/brand"] .ant-table').waitFor();
    await page.waitForLoadState('networkidle');
    await tabCommand(page, '/system/org', '关闭其他', tabsLeft(page, 2));
    await page.waitForURL('**/system/org');
    expect(await tabTitles(page)).toEqual(['仪表盘', '组织管理']);
    await tabCommand(page, '/system/org', '刷新');
    await page.waitForURL('**/system/org');
    await page.locator('.ant-dropdown:visible').waitFor({ state: 'hidden' });
    await tabCommand(page, '/dashboard', '关闭所有', tabsLeft(page, 1));
    await page.waitForURL('**/dashboard');
    expect(await tabTitles(page)).toEqual(['仪表盘']);
    await context.close();
  });
});

describe('theme and language', () => {
  it('switch and persist over a reload', async () => {
    const { page, context } = await adminPage();
    await page.getByTestId('language-menu').click();
    await settled(page); // the menu, once it stands still
    await page.locator('.ant-dropdown:visible').getByText('English').click();
    await page.getByText('Search menus').waitFor();
    await page.locator('.ant-color-picker-trigger').click();
    // The picker's popover, once it stands still: a click during its opening motion can miss the preset.
    await settled(page);
    await page.locator('.ant-color-picker-presets-color').nth(3).click();
    // The choice is stored as the theme changes: wait for it, as the user waits for the colour.
    await page.waitForFunction(() => localStorage.getItem('fleet-star.theme') !== null);
    await page.keyboard.press('Escape');
    const picked = await page.evaluate(() => localStorage.getItem('fleet-star.theme'));
    expect(picked).toBe('#13c2c2');
    await page.reload();
    await page.getByText('Search menus').waitFor();
    expect(await sidebarTitles(page)).toContain('System');
    const selected = await page
      .locator('[data-testid=sidebar-menu] .ant-menu-item-selected')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(selected).toBe('rgb(19, 194, 194)');
    await screenshot(page, 'shell-en-US');
    await context.close();
  });

  it('switch through every language, antd date pickers (dayjs) following', async () => {
    // Weekday headers from each language's first day of the week (dayjs's locale), in antd's own
    // words where its locale has them (es, ja), else in dayjs's.
    const weekdays: Record<string, string[]> = {
      'en-US': ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'],
      'es-ES': ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'],
      'ja-JP': ['日', '月', '火', '水', '木', '金', '土'],
      'zh-CN': ['一', '二', '三', '四', '五', '六', '日'],
    };
    const { page, context } = await adminPage();
    await page.goto('/statistics/daily');
    const filter = page.getByTestId('stats-filter');
    await filter.waitFor();
    for (const lang of ['en-US', 'es-ES', 'ja-JP', 'zh-CN'] as const) {
      await page.getByTestId('language-menu').click();
      await settled(page);
      // Each language's menu entry is its own name, in every language.
      await page
        .locator('.ant-dropdown:visible')
        .getByText(translate(lang, `console.languages.${lang}`), { exact: true })
        .click();
      await page.getByText(translate(lang, 'console.navbar.search')).first().waitFor();
      await filter.locator('.ant-picker').first().click();
      const panel = page.locator('.ant-picker-dropdown:visible');
      await panel.waitFor();
      expect(await panel.locator('.ant-picker-content thead th').first().locator('..').locator('th').allInnerTexts()).toEqual(
        weekdays[lang],
      );
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
    }
    await context.close();
  });

  it.each(['zh-CN', 'en-US', 'es-ES', 'ja-JP'])('render the shell in %s with no missing key', async (lang) => {
    const { page, context } = await adminPage(lang);
    await page.getByTestId('user-menu').click();
    await page.locator('.ant-dropdown:visible').waitFor();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/\b(console|http|validation|menu)\.[a-zA-Z]/);
    await context.close();
  });
});

describe('request errors', () => {
  it('asks to log in again when the token has been revoked (401)', async () => {
    const { page, context } = await adminPage();
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('fleet-star.session')!).token as string);
    expect((await http(suite.server.url + '/api/logout', 'POST', undefined, token)).status).toBe(204);
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确定登出' });
    // The console's next call answers 401: the live dashboard may make it first; else changing the
    // password does. Either way the user is asked to log in again.
    const changePassword = async () => {
      await page.getByTestId('user-menu').click({ timeout: 10_000 });
      await page.locator('.ant-dropdown:visible').getByText('修改密码').click({ timeout: 10_000 });
      const dialog = page.locator('.ant-modal').filter({ hasText: '修改密码' });
      const inputs = dialog.locator('input[type=password]');
      await inputs.nth(0).fill(ADMIN_PASSWORD, { timeout: 10_000 });
      await inputs.nth(1).fill('Fleet#97531x', { timeout: 10_000 });
      await inputs.nth(2).fill('Fleet#97531x', { timeout: 10_000 });
      await dialog.getByRole('button', { name: /确\s*定/ }).click({ timeout: 10_000 });
    };
    await Promise.race([confirm.waitFor(), changePassword().catch(() => confirm.waitFor())]);
    await confirm.getByText('你已被登出，可以取消继续留在该页面，或者重新登录').waitFor();
    await confirm.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL(/\/login(\?|$)/);
    await context.close();
  });
});
