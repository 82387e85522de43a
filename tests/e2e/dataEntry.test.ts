import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { readXlsx, XLSX_TYPE, xlsxOf } from '../helpers/xlsx';
import { ADMIN_PASSWORD, entityRows, login, screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * What a first-time administrator meets besides the forms themselves: the add-vehicle terminal
 * picker offering free terminals only, row actions in a menu on a phone, the navy theme's selected
 * menu item, the import dialog on a 768 px screen, a wrong old password said once, the audit log
 * telling outcome, object and details in words, and the share link's own toast.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite();
const { api } = suite;

const rows = (page: Page) => entityRows(page, 'vehicle');

async function vehicleList(page: Page) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicle/query') && r.request().method() === 'POST'),
    page.goto('/fleet/vehicleList'),
  ]);
  expect(response.status()).toBe(200);
  await rows(page).first().waitFor();
}

/** Whether a box lies wholly inside the viewport. */
async function inView(page: Page, selector: ReturnType<Page['locator']>) {
  const box = await selector.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
}

describe('data entry an admin can trust', () => {
  it('offers only free terminals when adding a vehicle, and a bound one no more', async () => {
    const free = await api('PUT', '/vehicle/terminal', { terminalNo: 'ENTRY0001', sim: '13911110001' });
    const offered = (await api('GET', '/vehicle/terminal/options?limit=1000&unusedBy=vehicle.terminalId')) as Array<{ label: string }>;
    expect(offered.map((o) => o.label)).toContain('ENTRY0001');
    const all = (await api('GET', '/vehicle/terminal/options?limit=1000')) as Array<{ label: string }>;
    const bound = all.map((o) => o.label).filter((n) => !offered.some((o) => o.label === n));
    expect(bound.length).toBeGreaterThan(0);

    const { page, context } = await suite.adminPage();
    await vehicleList(page);
    await page.getByTestId('entity-add').click();
    const form = page.locator('.ant-drawer-content').filter({ hasText: '新增车辆' });
    const [options] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/vehicle/terminal/options') && r.url().includes('unusedBy=vehicle.terminalId')),
      form.getByLabel('终端', { exact: true }).click(),
    ]);
    expect(options.status()).toBe(200);
    const list = page.locator('.ant-select-dropdown:visible');
    await list.getByText('ENTRY0001', { exact: true }).waitFor();
    const shown = await list.locator('.ant-select-item-option').allInnerTexts();
    expect(shown.length).toBe(offered.length);
    for (const n of bound) expect(shown).not.toContain(n);
    await screenshot(page, 'entry-free-terminals');
    await context.close();
    await api('DELETE', `/vehicle/terminal/${free.id}`);
  });

  it('puts the row actions into a menu at 390 px, each still working', async () => {
    const { page, context } = await suite.adminPage('zh-CN', (p) => p.setViewportSize({ width: 390, height: 800 }));
    await vehicleList(page);
    const first = rows(page).first();
    const plate = (await first.locator('td').first().innerText()).trim();
    // One menu link per row, no edit link beside the plate.
    expect(await first.getByTestId('row-edit').count()).toBe(0);
    const more = first.getByTestId('row-more');
    expect(await inView(page, more)).toBe(true);
    await more.click();
    const menu = page.getByTestId('row-menu').filter({ visible: true });
    await menu.getByTestId('row-edit').waitFor();
    // The menu slides in: choose once it stands still, or the click lands where it was.
    await settled(page);
    await screenshot(page, 'entry-row-menu-390');
    await menu.getByTestId('row-edit').click();
    const edit = page.locator('.ant-drawer-content').filter({ hasText: '编辑车辆' });
    await edit.waitFor();
    expect(await edit.getByLabel('车牌号', { exact: true }).inputValue()).toBe(plate);
    await context.close();
  });

  it('keeps the selected menu item visible on the navy theme', async () => {
    const { page, context } = await suite.adminPage('zh-CN', (p) =>
      p.addInitScript(() => localStorage.setItem('fleet-star.theme', '#0c3467')),
    );
    await vehicleList(page);
    const selected = page.locator('[data-testid=sidebar-menu] .ant-menu-item-selected');
    await selected.getByText('车辆管理').waitFor();
    const colours = await selected.evaluate((el) => {
      const sider = el.closest('.ant-layout-sider') ?? el.closest('.ant-menu');
      return { item: getComputedStyle(el).backgroundColor, sider: getComputedStyle(sider!).backgroundColor };
    });
    expect(colours.sider).toBe('rgb(12, 52, 103)');
    expect(colours.item).not.toBe(colours.sider);
    expect(colours.item).not.toMatch(/rgba\(0, 0, 0, 0\)/);
    await screenshot(page, 'entry-navy-selection');
    await context.close();
  });

  it.each([
    [1024, 768],
    [768, 1024],
  ])('fits the import dialog and its confirm button on a %i×%i screen', async (width, height) => {
    const { page, context } = await suite.adminPage('zh-CN', (p) => p.setViewportSize({ width, height }));
    await vehicleList(page);
    await page.getByTestId('sheet-import').click();
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('sheet-template') });
    // It imports vehicles, not the vehicle page.
    await dialog.locator('.ant-modal-title').getByText('导入车辆', { exact: true }).waitFor();
    const bad = [['车牌号'], ...Array.from({ length: 30 }, (_, i) => [`abc${i}`])];
    await dialog.locator('input[type=file]').setInputFiles({ name: 'bad.xlsx', mimeType: XLSX_TYPE, buffer: await xlsxOf(bad, '数据') });
    await dialog.getByTestId('sheet-errors').waitFor();
    expect(await inView(page, dialog.getByTestId('sheet-apply'))).toBe(true);
    expect(await inView(page, dialog.getByRole('button', { name: /取\s*消/ }))).toBe(true);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    await screenshot(page, `entry-import-${width}x${height}`);
    await context.close();
  });

  it("shows an import's rows checked and stored out of all, with a stop that says what became of them", async () => {
    const { page, context } = await suite.adminPage();
    await vehicleList(page);
    const total = 400;
    const file = await xlsxOf([['车牌号'], ...Array.from({ length: total }, (_, i) => [`新Z${20000 + i}`])], '数据');
    const stored = async () => (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '新Z' }, pageSize: 1 })).total as number;
    // The server answers at once here; its answer is held in the browser, as a slow link would, so
    // the dialog shows the server's own figures while the call is under way.
    const holdAnswer = async (url: string) => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route(url, async (route) => {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response }).catch(() => undefined); // the dialog stopped it meanwhile
      });
      return () => {
        release();
        return page.unroute(url);
      };
    };
    const progress = page.getByTestId('sheet-progress');
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('sheet-template') });

    // The check: its rows so far, then stopped.
    let released = await holdAnswer('**/api/vehicle/vehicle/importValidate');
    await page.getByTestId('sheet-import').click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'many.xlsx', mimeType: XLSX_TYPE, buffer: file });
    await page.locator(`[data-testid=sheet-progress][data-phase=check][data-done="${total}"][data-total="${total}"]`).waitFor();
    expect(await page.getByTestId('sheet-progress-text').innerText()).toBe(`已校验 ${total} / ${total} 行`);
    await screenshot(page, 'entry-import-progress');
    await page.getByTestId('sheet-run-cancel').click();
    await dialog.getByTestId('sheet-cancelled').getByText('校验已取消').waitFor();
    await released();
    expect(await progress.count()).toBe(0);

    // Checked again, then stored: the store's rows so far; stopped after the server stored them all, which the console says.
    await dialog.locator('input[type=file]').setInputFiles({ name: 'many.xlsx', mimeType: XLSX_TYPE, buffer: file });
    await dialog.getByTestId('sheet-valid').waitFor();
    released = await holdAnswer('**/api/vehicle/vehicle/import');
    await dialog.getByTestId('sheet-apply').click();
    await page.locator(`[data-testid=sheet-progress][data-phase=store][data-done="${total}"][data-total="${total}"]`).waitFor();
    expect(await page.getByTestId('sheet-progress-text').innerText()).toBe(`已保存 ${total} / ${total} 行`);
    await page.getByTestId('sheet-run-cancel').click();
    await page.locator('.ant-message').getByText('取消时导入已完成，数据已保存').waitFor();
    await released();
    expect(await stored()).toBe(total);
    await context.close();
  });

  it('re-imports an exported page: the preview says what is created, updated and unchanged, then the vehicle is updated', async () => {
    const { page, context } = await suite.adminPage();
    await vehicleList(page);
    await page.getByTestId('sheet-export').click();
    await settled(page); // the menu, once it stands still
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.ant-dropdown:visible').getByText('导出当前页', { exact: true }).click(),
    ]);
    const rows = await readXlsx(fs.readFileSync((await download.path())!));
    const header = rows[0] as string[];
    const body = rows.slice(1).map((r) => [...r]);
    const licence = body[0][header.indexOf('车牌号')] as string;
    const stored = (await api('POST', '/vehicle/vehicle/query', { criteria: { licence } })).data[0];
    const [status, label] = stored.status === 'repair' ? ['normal', '正常'] : ['repair', '维修中'];
    body[0][header.indexOf('车辆状态')] = label;

    await page.getByTestId('sheet-import').click();
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('sheet-template') });
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'export.xlsx', mimeType: XLSX_TYPE, buffer: await xlsxOf([header, ...body], '数据') });
    const plan = dialog.getByTestId('sheet-plan');
    await plan.waitFor();
    expect(await plan.getByTestId('sheet-plan-created').innerText()).toBe('新增 0 行');
    expect(await plan.getByTestId('sheet-plan-updated').innerText()).toBe('更新 1 行');
    expect(await plan.getByTestId('sheet-plan-unchanged').innerText()).toBe(`${body.length - 1} 行无变化`);
    const updates = dialog.getByTestId('sheet-plan-updates').locator('.ant-table-tbody tr.ant-table-row');
    expect(await updates.allInnerTexts()).toEqual([expect.stringMatching(new RegExp(`^2\\s+车牌号：${licence}\\s+车辆状态$`))]);
    await screenshot(page, 'entry-import-preview');

    const [stored201] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicle/import') && r.request().method() === 'POST'),
      dialog.getByTestId('sheet-apply').click(),
    ]);
    expect(stored201.status()).toBe(201);
    await page
      .locator('.ant-message')
      .getByText(`导入完成：新增0条，更新1条，${body.length - 1}条无变化`)
      .waitFor();
    const after = (await api('POST', '/vehicle/vehicle/query', { criteria: { licence } })).data[0];
    expect(after).toMatchObject({ id: stored.id, status });
    await context.close();
  });

  it('says a wrong old password once, on its field, and the log shows it failed, naming objects and details', async () => {
    await api('POST', '/passport/passport/register', {
      loginName: 'entry.clerk',
      name: '录入员',
      memberType: 'orgUser',
      expireDate: '2099-01-01',
      password: 'Start2026x',
      orgId: (await api('GET', '/passport/member/current')).orgId,
    });
    const { page, context } = await suite.adminPage();
    await page.getByTestId('user-menu').click();
    await settled(page); // the menu, once it stands still
    await page.locator('.ant-dropdown:visible').getByText('修改密码').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '修改密码' });
    const inputs = dialog.locator('input[type=password]');
    await inputs.nth(0).fill('Wrong2026x');
    await inputs.nth(1).fill('Fleet#97531x');
    await inputs.nth(2).fill('Fleet#97531x');
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/passport/member/change-password')),
      dialog.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(refused.status()).toBe(400);
    await dialog.locator('.ant-form-item-explain-error').getByText('原密码不正确').waitFor();
    // Said once: on the field, not again in a toast.
    expect(await page.getByText('原密码不正确').count()).toBe(1);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();

    await page.goto('/system/log');
    const logRows = page.getByTestId('log-page').locator('.ant-table-tbody tr.ant-table-row');
    await logRows.first().waitFor();
    const change = logRows.filter({ hasText: '修改密码' }).first();
    expect(await change.getByTestId('log-result').innerText()).toBe('失败');
    expect(await change.getByTestId('log-detail').innerText()).toBe('原密码不正确');
    const registered = logRows.filter({ hasText: '注册账号' }).first();
    expect(await registered.getByTestId('log-target').innerText()).toBe('账号：录入员');
    expect(await registered.getByTestId('log-detail').innerText()).toBe('登录名：entry.clerk');
    expect(await page.getByTestId('log-page').innerText()).not.toMatch(/\{"/);
    await screenshot(page, 'entry-audit-log');
    await context.close();
    // The admin's password is unchanged.
    const again = await suite.freshPage();
    await login(again.page, 'admin', ADMIN_PASSWORD);
    await again.page.waitForURL('**/dashboard');
    await again.context.close();
  });

  it('says a share link was created, not that a record was added', async () => {
    const { page, context } = await suite.adminPage();
    await vehicleList(page);
    await rows(page).first().getByTestId('share-location').click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '分享车辆位置' });
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/share') && r.request().method() === 'POST'),
      dialog.getByTestId('share-create').click(),
    ]);
    await page.locator('.ant-message-notice').getByText('分享链接已生成').waitFor();
    expect(await page.locator('.ant-message-notice').getByText('添加成功！').count()).toBe(0);
    await context.close();
  });
});
