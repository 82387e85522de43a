import type { Locator, Page, Request } from 'playwright-core';
import { http } from '../helpers/serverProcess';
import { schemaPageEntities } from '../../src/pages/schemaPages.generated';
import { entityRows, entityTable, flatTree, listReloading as reloading, screenshot, useConsoleSuite } from './helpers/console';
import { settled, tableFits } from './helpers/pageChecks';

/**
 * The schema-driven entity pages in a real browser against `npm start` with the demo data: the
 * vehicle list end to end (search, sort, the browser's own validation, the server's refusals,
 * create, edit, delete), then every schema page opened through the menu.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();
const { api } = suite;

interface Resource {
  name: string;
  code: string;
  kind: string;
  path: string | null;
  url: string | null;
  children?: Resource[];
}
const flat = (tree: Resource[]) => flatTree(tree);

/** Signed in as admin, on the dashboard, watching for error toasts and requests. */
async function adminPage() {
  const requests: Request[] = [];
  const opened = await suite.adminPage('zh-CN', (page) => page.on('request', (r) => requests.push(r)));
  return { ...opened, requests };
}

const table = entityTable;
const rows = entityRows;

/** The texts of one column (by its title) on the page shown. */
async function column(page: Page, entity: string, title: string): Promise<string[]> {
  return table(page, entity).evaluate((root, t) => {
    const heads = [...root.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim());
    const i = heads.indexOf(t);
    if (i < 0) throw new Error(`no column ${t} in ${heads.join('|')}`);
    return [...root.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => (tr.children[i] as HTMLElement).innerText.trim());
  }, title);
}

const errorToasts = (page: Page) => page.locator('.ant-message-notice .ant-message-error').allInnerTexts();
const formItem = (form: Locator, label: string) =>
  form.locator('.ant-form-item').filter({ has: form.page().locator(`label[title="${label}"]`) });

describe('the vehicle list', () => {
  it('lists, searches, sorts, refuses bad input on the field and from the server, creates, edits and deletes', async () => {
    const { page, context, external, requests } = await adminPage();
    const first = await reloading(page, 'vehicle', () => page.goto('/fleet/vehicleList'));
    const all = await api('POST', '/vehicle/vehicle/query', { pageSize: 20 });
    expect(first.total).toBe(all.total);
    expect(all.total).toBeGreaterThan(20);
    // The rows and the total the server has, in its default order.
    expect(await column(page, 'vehicle', '车牌号')).toEqual(all.data.map((v: { licence: string }) => v.licence));
    await table(page, 'vehicle').getByText(`共 ${all.total} 条`).waitFor();
    expect(await column(page, 'vehicle', '品牌')).toContain(all.data[0].brandName);
    await screenshot(page, 'entity-vehicle-list');

    // The keyword box narrows the list to what the server finds.
    const narrowed = await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '海通' }, pageSize: 20 });
    expect(narrowed.total).toBeLessThan(all.total);
    const keywordBox = table(page, 'vehicle').getByPlaceholder('搜索关键字');
    await reloading(page, 'vehicle', async () => {
      await keywordBox.fill('海通');
      await keywordBox.press('Enter');
    });
    await table(page, 'vehicle').getByText(`共 ${narrowed.total} 条`).waitFor();
    expect(new Set(await column(page, 'vehicle', '客户'))).toEqual(new Set(['海通冷链']));
    await reloading(page, 'vehicle', async () => {
      await keywordBox.fill('');
      await keywordBox.press('Enter');
    });

    // A column header sorts on the server.
    const byCustomer = await api('POST', '/vehicle/vehicle/query', { order: { property: 'customer', direction: 'DESC' }, pageSize: 20 });
    const header = table(page, 'vehicle').locator('.ant-table-thead th').filter({ hasText: '客户' });
    await reloading(page, 'vehicle', () => header.click());
    const sent = await reloading(page, 'vehicle', () => header.click());
    expect(sent.data.map((v) => v.customer)).toEqual(byCustomer.data.map((v: { customer: string }) => v.customer));
    expect((await column(page, 'vehicle', '客户'))[0]).toBe(byCustomer.data[0].customer);

    // The search form: licence contains.
    await reloading(page, 'vehicle', async () => {
      await page.getByTestId('entity-page-vehicle').locator('.ant-pro-table-search').getByLabel('车牌号', { exact: true }).fill('浙A');
      await page
        .getByTestId('entity-page-vehicle')
        .locator('.ant-pro-table-search')
        .getByRole('button', { name: /查\s*询/ })
        .click();
    });
    expect((await column(page, 'vehicle', '车牌号')).every((l) => l.includes('浙A'))).toBe(true);
    await reloading(page, 'vehicle', () =>
      page
        .getByTestId('entity-page-vehicle')
        .locator('.ant-pro-table-search')
        .getByRole('button', { name: /重\s*置/ })
        .click(),
    );

    // Create: a bad VIN is refused on its field, in the server's words, before any call.
    await page.getByTestId('entity-add').click();
    const form = page.locator('.ant-drawer-content').filter({ hasText: '新增车辆' });
    await form.getByLabel('车牌号', { exact: true }).fill('沪E2E001');
    await form.getByLabel('车架号（VIN）', { exact: true }).fill('LSVAM4187C218484I');
    const before = requests.length;
    await form.getByRole('button', { name: /确\s*定/ }).click();
    const serverSays = await http(
      suite.server.url + '/api/vehicle/vehicle',
      'POST',
      { licence: '沪E2E001', vin: 'LSVAM4187C218484I' },
      suite.adminToken,
    );
    expect(serverSays.status).toBe(400);
    await formItem(form, '车架号（VIN）').locator('.ant-form-item-explain-error').getByText(serverSays.json.errors[0].message).waitFor();
    expect(serverSays.json.errors[0].message).toBe('车架号（VIN）应为17位字母或数字，且不含 I、O、Q');
    await screenshot(page, 'entity-vehicle-create');
    expect(requests.slice(before).filter((r) => r.method() === 'POST' && r.url().endsWith('/api/vehicle/vehicle'))).toEqual([]);

    // A duplicate licence (plates are unique in the tenant's tree): the server's 406 message, shown once.
    const taken = await api('POST', '/vehicle/vehicle', { licence: '沪E2E000' });
    await form.getByLabel('车架号（VIN）', { exact: true }).fill('LSVAM4187C2184847');
    await form.getByLabel('车牌号', { exact: true }).fill('沪E2E000');
    const [dup] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicle') && r.request().method() === 'POST'),
      form.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(dup.status()).toBe(406);
    await page.locator('.ant-message-notice').getByText('车牌号已被本单位的其他车辆使用').waitFor();
    expect((await errorToasts(page)).filter((t) => t === '车牌号已被本单位的其他车辆使用')).toHaveLength(1);

    // Success, with a brand picked from the options the server gives for what was typed.
    await form.getByLabel('车牌号', { exact: true }).fill('沪E2E001');
    await formItem(form, '品牌').locator('.ant-select').click();
    // The list opened unfiltered; the options for what was typed replace it once the search answers.
    // A click before that can land on the list being replaced, and the form then holds no brand.
    const brandSearch = (r: { url(): string }) => {
      const url = new URL(r.url());
      return url.pathname.endsWith('/vehicleBrand/query') && url.searchParams.get('q') === '解放';
    };
    await Promise.all([page.waitForResponse(brandSearch), page.keyboard.type('解放')]);
    await settled(page);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '解放' }).first().click();
    await formItem(form, '品牌').locator('.ant-select-selection-item').getByText('解放').waitFor();
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicle') && r.request().method() === 'POST'),
      form.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(created.status()).toBe(201);
    await page.locator('.ant-message-notice').getByText('添加成功！').waitFor();
    await form.waitFor({ state: 'hidden' });
    await reloading(page, 'vehicle', async () => {
      await keywordBox.fill('沪E2E001');
      await keywordBox.press('Enter');
    });
    await rows(page, 'vehicle').filter({ hasText: '沪E2E001' }).waitFor();
    expect(await column(page, 'vehicle', '品牌')).toEqual(['解放']);
    expect((await column(page, 'vehicle', '所属组织'))[0]).not.toBe('-');

    // Edit: the form comes filled from the server; the change shows in the list.
    await rows(page, 'vehicle').filter({ hasText: '沪E2E001' }).getByTestId('row-edit').click();
    const editForm = page.locator('.ant-drawer-content').filter({ hasText: '编辑车辆' });
    expect(await editForm.getByLabel('车架号（VIN）', { exact: true }).inputValue()).toBe('LSVAM4187C2184847');
    await editForm.getByLabel('客户', { exact: true }).fill('E2E 客户');
    await reloading(page, 'vehicle', () => editForm.getByRole('button', { name: /确\s*定/ }).click());
    await rows(page, 'vehicle').filter({ hasText: 'E2E 客户' }).waitFor();

    // Delete, after confirming.
    await rows(page, 'vehicle').filter({ hasText: '沪E2E001' }).getByTestId('row-remove').click();
    await settled(page);
    await reloading(page, 'vehicle', () =>
      page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /确\s*定/ })
        .click(),
    );
    await page.locator('.ant-message-notice').getByText('删除成功！').waitFor();
    await rows(page, 'vehicle').filter({ hasText: '沪E2E001' }).waitFor({ state: 'detached' });
    expect((await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '沪E2E001' } })).total).toBe(0);
    await api('DELETE', `/vehicle/vehicle/${taken.id}`);

    expect(external).toEqual([]);
    await context.close();
  });
});

describe('every schema page', () => {
  it('opens through the menu and lists rows or an empty state, with no error, no raw message key and nothing from outside', async () => {
    const { page, context, external } = await adminPage();
    const menus = flat(await api('GET', '/passport/resource/authorized/obd-web')).filter((r) => r.kind === 'Menu');
    const keys = Object.keys(schemaPageEntities);
    expect(keys.length).toBeGreaterThanOrEqual(24);
    for (const key of keys) {
      const entity = schemaPageEntities[key];
      const entry = menus.find((m) => m.url === key);
      expect({ key, entry: !!entry }).toEqual({ key, entry: true });
      const area = menus.find((m) => m.children?.includes(entry!));
      const sidebar = page.getByTestId('sidebar-menu');
      await sidebar.locator('li').first().waitFor();
      const item = sidebar.locator(`li.ant-menu-item[data-menu-id$="-${entry!.path}"]`);
      if (area && !(await item.isVisible())) await sidebar.locator(`.ant-menu-submenu-title[data-menu-id$="-${area.path}"]`).click();
      await item.waitFor({ state: 'visible' });
      // Opening an area folds the one open before: click once the menu stops moving, or the item slides
      // from under the pointer (rc-motion tags a submenu with its motion name only while it moves).
      await sidebar.locator('.ant-motion-collapse').first().waitFor({ state: 'detached' });
      await item.click();
      await page.waitForURL('**' + entry!.path);
      const view = table(page, entity);
      await view.locator('.ant-table-tbody tr.ant-table-row, .ant-table-tbody .ant-empty').first().waitFor();
      await view.locator('.ant-table-wrapper .ant-spin-spinning').waitFor({ state: 'detached' });
      expect({ key, errors: await errorToasts(page), notices: await page.locator('.ant-notification-notice').count() }).toEqual({
        key,
        errors: [],
        notices: 0,
      });
      const text = await page.locator('body').innerText();
      expect({ key, raw: text.match(/\b(entity|console|validation|http)\.[a-zA-Z]+/g) }).toEqual({ key, raw: null });
      // At a laptop's 1280 px and a desktop's 1440 px every column can be scrolled to, clear of the actions.
      for (const width of [1440, 1280]) {
        await page.setViewportSize({ width, height: 760 });
        expect({ key, width, faults: await tableFits(page, `[data-testid=entity-page-${entity}]`, 3000) }).toEqual({
          key,
          width,
          faults: [],
        });
      }
    }
    expect(external).toEqual([]);
    await context.close();
  });
});
