import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { readXlsx, XLSX_TYPE, xlsxOf } from '../helpers/xlsx';
import { entityRows, entityTable, listReloading, screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * A first-time administrator's day one in a real browser: add and edit a vehicle with the mistakes
 * people make, fill the import template with the names its dropdowns show, export and import the
 * export again, switch language with tabs open, and read the vehicle list at 390 and 1280 px.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite();
const { api } = suite;

const table = (page: Page) => entityTable(page, 'vehicle');
const rows = (page: Page) => entityRows(page, 'vehicle');

const reloading = (page: Page, action: () => Promise<unknown>) => listReloading(page, 'vehicle', action);

describe("the first-time administrator's path", () => {
  it('adds and edits with bad input, imports the template filled from its dropdowns, imports an export again', async () => {
    const { page, context } = await suite.adminPage();
    await reloading(page, () => page.goto('/fleet/vehicleList'));
    expect(await page.title()).toBe('车辆管理 - 车管星');

    // Add: what people type is refused on its field, before any call.
    await page.getByTestId('entity-add').click();
    const form = page.locator('.ant-drawer-content').filter({ hasText: '新增车辆' });
    await form.getByLabel('车牌号', { exact: true }).fill('abc');
    await form.getByLabel('油箱容量（升）', { exact: true }).fill('abc');
    await form.getByLabel('初始里程（公里）', { exact: true }).fill('1e9999');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await form.getByText('车牌号不是有效的车牌号（外国车牌请以 # 开头，如 #ABC-1234）').waitFor();
    await form.getByText('油箱容量（升）必须是有效的数字').waitFor();
    await form.getByText('初始里程（公里）必须是有效的数字').waitFor();
    // A plate of the tenant in another spelling: the server's refusal lands on the field.
    await form.getByLabel('油箱容量（升）', { exact: true }).fill('');
    await form.getByLabel('初始里程（公里）', { exact: true }).fill('');
    await form.getByLabel('车牌号', { exact: true }).fill(' 沪a10137 ');
    const [dup] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicle') && r.request().method() === 'POST'),
      form.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(dup.status()).toBe(406);
    await form.locator('.ant-form-item-explain-error').getByText('车牌号已被本单位的其他车辆使用').waitFor();
    // Esc after typing asks first; keeping on edits keeps what was typed.
    await page.keyboard.press('Escape');
    const ask = page.locator('.ant-modal-confirm').filter({ hasText: '放弃未保存的修改？' });
    await ask.getByRole('button', { name: '继续编辑' }).click();
    expect(await form.getByLabel('车牌号', { exact: true }).inputValue()).toBe(' 沪a10137 ');
    await form.getByLabel('车牌号', { exact: true }).fill(' 沪ad 12345 ');
    await reloading(page, () => form.getByRole('button', { name: /确\s*定/ }).click());
    expect((await api('POST', '/vehicle/vehicle/query', { criteria: { licence: '沪AD12345' } })).data[0].licence).toBe('沪AD12345');
    // The drawer's mask takes clicks until it has gone.
    await form.waitFor({ state: 'hidden' });

    // Edit: a service end before its start is refused on the field; a good edit toasts.
    await reloading(page, async () => {
      await table(page).locator('.ant-pro-table-search').getByLabel('车牌号', { exact: true }).fill('沪AD12345');
      await table(page)
        .locator('.ant-pro-table-search')
        .getByRole('button', { name: /查\s*询/ })
        .click();
    });
    await rows(page).filter({ hasText: '沪AD12345' }).getByTestId('row-edit').click();
    const edit = page.locator('.ant-drawer-content').filter({ hasText: '编辑车辆' });
    await edit.getByLabel('客户', { exact: true }).fill('顺达快运');
    await edit.getByLabel('服务开始日期', { exact: true }).fill('2026-06-01');
    await edit.getByLabel('服务开始日期', { exact: true }).press('Enter');
    await edit.getByLabel('服务到期日期', { exact: true }).fill('2026-05-31');
    await edit.getByLabel('服务到期日期', { exact: true }).press('Enter');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await edit.getByText('服务到期日期不能早于服务开始日期').waitFor();
    await edit.getByLabel('服务到期日期', { exact: true }).fill('2026-12-31');
    await edit.getByLabel('服务到期日期', { exact: true }).press('Enter');
    await reloading(page, () => edit.getByRole('button', { name: /确\s*定/ }).click());
    await page.locator('.ant-message-notice').getByText('保存成功').waitFor();
    await screenshot(page, 'first-admin-edited');

    // Import: the template, filled with the names its dropdowns offer, goes to the organisation named.
    await page.getByTestId('sheet-import').click();
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('sheet-template') });
    await dialog.waitFor();
    await settled(page); // the dialog, once it has finished opening
    const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('sheet-template').click()]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await template.path())!) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as string[]).slice(1);
    const lists = wb.getWorksheet('lists')!;
    const offered = (label: string) => {
      const v = (ws as unknown as { dataValidations: { model: Record<string, { formulae: string[] }> } }).dataValidations.model[
        `${ws.getColumn(header.indexOf(label) + 1).letter}3`
      ];
      const [, col, last] = /^lists!\$([A-Z]+)\$1:\$[A-Z]+\$(\d+)$/.exec(v.formulae[0])!;
      return Array.from({ length: Number(last) }, (_, i) => String(lists.getCell(`${col}${i + 1}`).value));
    };
    const pick = (label: string, value: string) => {
      expect(offered(label)).toContain(value);
      return value;
    };
    const values: Record<string, ExcelJS.CellValue> = {
      车牌号: '浙E00077',
      所属组织: pick('所属组织', '杭州车队'),
      品牌: pick('品牌', '东风'),
      燃油类型: pick('燃油类型', '0号柴油'),
      司机: pick('司机', '吴杰'),
      车辆状态: pick('车辆状态', '维修中'),
    };
    ws.getRow(3).values = header.map((h) => values[h] ?? null);
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'vehicles.xlsx', mimeType: XLSX_TYPE, buffer: Buffer.from(await wb.xlsx.writeBuffer()) });
    await dialog.getByTestId('sheet-valid').getByText('全部1行数据有效').waitFor();
    await reloading(page, () => dialog.getByTestId('sheet-apply').click());
    await page.locator('.ant-message-notice').getByText('成功导入1条数据').waitFor();
    const imported = (await api('POST', '/vehicle/vehicle/query', { criteria: { licence: '浙E00077' } })).data[0];
    expect(imported).toMatchObject({ brandName: '东风', driverName: '吴杰', fuelTypeName: '0号柴油', status: 'repair' });

    // Export, edit the file, import it again: read-only columns are ignored, times read as on screen.
    await reloading(page, async () => {
      await table(page).locator('.ant-pro-table-search').getByLabel('车牌号', { exact: true }).fill('浙E00077');
      await table(page)
        .locator('.ant-pro-table-search')
        .getByRole('button', { name: /查\s*询/ })
        .click();
    });
    await page.getByTestId('sheet-export').click();
    await settled(page); // the menu, once it stands still
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.ant-dropdown:visible').getByText('导出全部', { exact: true }).click(),
    ]);
    const sheet = await readXlsx(fs.readFileSync((await exported.path())!));
    const head = sheet[0] as string[];
    expect(head).toEqual(expect.arrayContaining(['所属组织', '创建时间', '更新时间']));
    expect(String(sheet[1][head.indexOf('创建时间')])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const again = [head, head.map((h, i) => (h === '车牌号' ? '浙E00078' : (sheet[1][i] ?? null)))];
    await page.getByTestId('sheet-import').click();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'exported.xlsx', mimeType: XLSX_TYPE, buffer: await xlsxOf(again, '数据') });
    await dialog.getByTestId('sheet-valid').getByText('全部1行数据有效').waitFor();
    await reloading(page, () => dialog.getByTestId('sheet-apply').click());
    await page.locator('.ant-message-notice').getByText('成功导入1条数据').last().waitFor();
    expect((await api('POST', '/vehicle/vehicle/query', { criteria: { licence: '浙E00078' } })).data[0]).toMatchObject({
      orgId: imported.orgId,
      brandName: '东风',
    });
    await context.close();
  });

  it('renames open tabs and the browser tab on a language switch', async () => {
    const { page, context } = await suite.adminPage();
    // Open two tabs the way the menu does (client-side navigation keeps the tabs).
    for (const p of ['/fleet/vehicleList', '/fleet/terminal']) {
      await page.evaluate((path) => window.history.pushState(null, '', path), p);
      await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
      await page.waitForURL('**' + p);
    }
    await page.locator('.ant-tabs-tab').filter({ hasText: '车辆管理' }).waitFor();
    await page.waitForFunction(() => document.title === '终端管理 - 车管星');
    await page.getByTestId('language-menu').click();
    await settled(page); // the menu, once it stands still
    await page.locator('.ant-dropdown:visible').getByText('English').click();
    await page.locator('.ant-tabs-tab').filter({ hasText: 'Vehicles' }).waitFor();
    await page.locator('.ant-tabs-tab').filter({ hasText: 'Terminals' }).waitFor();
    expect(await page.locator('.ant-tabs-tab').filter({ hasText: '车辆管理' }).count()).toBe(0);
    await page.waitForFunction(() => document.title === 'Terminals - Fleet Star');
    await context.close();
  });

  it.each([390, 1280])('shows the plate column at %i px', async (width) => {
    const { page, context } = await suite.adminPage('zh-CN', (p) => p.setViewportSize({ width, height: 800 }));
    await reloading(page, () => page.goto('/fleet/vehicleList'));
    const plate = rows(page).first().locator('td').first();
    const box = await plate.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    expect(await plate.innerText()).toMatch(/^[沪浙粤]/);
    // The plate cell is not covered by the actions column.
    const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('td')?.cellIndex ?? -1, {
      x: box!.x + 5,
      y: box!.y + box!.height / 2,
    });
    expect(hit).toBe(0);
    await screenshot(page, `first-admin-vehicles-${width}`);
    await context.close();
  });
});
