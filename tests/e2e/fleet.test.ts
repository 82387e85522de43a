import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { http } from '../helpers/serverProcess';
import { readXlsx, xlsxOf } from '../helpers/xlsx';
import { entityRows, entityTable, listReloading as reloading, screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The fleet pages in a real browser against `npm start` with the demo data: terminal import (a file
 * with a bad row, then a good one), export of the current page and of every matching row, the
 * vehicle licence cell (expired → red → dialog; otherwise a link), bind and unbind.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite();
const { api } = suite;
const adminPage = () => suite.adminPage();

const table = entityTable;
const rows = entityRows;

async function search(page: Page, entity: string, keyword: string) {
  const box = table(page, entity).getByPlaceholder('搜索关键字');
  return reloading(page, entity, async () => {
    await box.fill(keyword);
    await box.press('Enter');
  });
}

const xlsx = (rowsOf: unknown[][]) => xlsxOf(rowsOf, '数据');

/** The rows of a downloaded xlsx. */
const downloadedRows = (path: string) => readXlsx(fs.readFileSync(path));

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('terminals', () => {
  it('imports nothing from a file with a bad row and shows its errors by row and field, then imports a good file', async () => {
    const { page, context, external } = await adminPage();
    await reloading(page, 'terminal', () => page.goto('/fleet/terminal'));
    await page.getByTestId('sheet-import').click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '导入终端' });
    const header = ['终端编号', 'SIM 卡号', '终端类型', '备注'];
    const bad = await xlsx([
      header,
      ['E2E0001', '14400990001', 'OBD 终端', 'ok'],
      ['E2E0002', 'not-a-sim', '飞碟', 'bad'],
      ['', '14400990003', 'obd', 'no number'],
    ]);

    // Only xlsx and csv files are sent.
    await dialog.locator('input[type=file]').setInputFiles({ name: 'rows.txt', mimeType: 'text/plain', buffer: Buffer.from('a,b') });
    await dialog.getByTestId('sheet-problem').getByText('只能上传 xlsx 或 csv 文件').waitFor();

    await dialog.locator('input[type=file]').setInputFiles({ name: 'terminals-bad.xlsx', mimeType: XLSX_TYPE, buffer: bad });
    const errors = dialog.getByTestId('sheet-errors');
    await errors.waitFor();
    await dialog.getByText('2行数据有误，未导入任何数据').waitFor();
    const lines = await errors
      .locator('.ant-table-tbody tr.ant-table-row')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => (td as HTMLElement).innerText.trim())));
    // Rows in file order; a row's fields in the server's order.
    expect(lines.map((l) => l[0])).toEqual(['3', '3', '4']);
    expect([...lines].sort()).toEqual([
      ['3', 'SIM 卡号', 'SIM 卡号格式不正确（填写的是“not-a-sim”）'],
      ['3', '终端类型', '终端类型的取值“飞碟”无效，可选：OBD 终端、定位终端、视频终端、其他'],
      ['4', '终端编号', '终端编号不能为空'],
    ]);
    expect(await dialog.getByTestId('sheet-apply').isDisabled()).toBe(true);
    await settled(page);
    await screenshot(page, 'fleet-terminal-import-errors');
    expect((await api('POST', '/vehicle/terminal/query', { criteria: { keyword: 'E2E000' } })).total).toBe(0);

    // A good file: "2 rows valid", confirmed, stored, listed.
    const good = await xlsx([header, ['E2E0001', '14400990001', 'OBD 终端', 'ok'], ['E2E0002', '14400990002', 'gnss', null]]);
    await dialog.locator('input[type=file]').setInputFiles({ name: 'terminals.xlsx', mimeType: XLSX_TYPE, buffer: good });
    await dialog.getByTestId('sheet-valid').getByText('全部2行数据有效').waitFor();
    expect((await api('POST', '/vehicle/terminal/query', { criteria: { keyword: 'E2E000' } })).total).toBe(0);
    await reloading(page, 'terminal', () => dialog.getByTestId('sheet-apply').click());
    await page.locator('.ant-message-notice').getByText('成功导入2条数据').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await search(page, 'terminal', 'E2E000');
    await rows(page, 'terminal').filter({ hasText: 'E2E0002' }).waitFor();
    expect(await rows(page, 'terminal').count()).toBe(2);
    expect(external).toEqual([]);
    await context.close();
  });

  it('exports the current page and every matching row as xlsx files named in the user language', async () => {
    const { page, context } = await adminPage();
    const first = await reloading(page, 'terminal', () => page.goto('/fleet/terminal'));
    expect(first.total).toBeGreaterThan(first.data.length); // more rows than the page shows

    const exporting = async (item: string) => {
      await page.getByTestId('sheet-export').click();
      await settled(page); // the menu, once it stands still
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('.ant-dropdown:visible').getByText(item, { exact: true }).click(),
      ]);
      const path = await download.path();
      return { name: download.suggestedFilename(), rows: await downloadedRows(path!) };
    };

    const current = await exporting('导出当前页');
    expect(current.name).toMatch(/^终端管理_当前页_\d{8}-\d{6}\.xlsx$/);
    expect(current.rows[0]).toEqual(expect.arrayContaining(['终端编号', 'SIM 卡号']));
    const numberCol = (current.rows[0] as string[]).indexOf('终端编号');
    expect(current.rows.slice(1).map((r) => r[numberCol])).toEqual(first.data.map((t) => t.terminalNo));

    const all = await exporting('导出全部');
    expect(all.name).toMatch(/^终端管理_全部_\d{8}-\d{6}\.xlsx$/);
    expect(all.rows.length - 1).toBe(first.total);

    // Both follow the list's search.
    const narrowed = await search(page, 'terminal', '80800000001');
    expect(narrowed.total).toBeGreaterThan(1);
    expect((await exporting('导出全部')).rows.length - 1).toBe(narrowed.total);
    await context.close();
  });
  it('renews service ends by spreadsheet: the renewal template, a bad row refused by row, then the renewal', async () => {
    const { page, context } = await adminPage();
    const first = await reloading(page, 'terminal', () => page.goto('/fleet/terminal'));
    const [a, b] = first.data.map((t) => t.terminalNo as string);
    await page.getByTestId('sheet-renew').click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '批量续期终端' });
    await dialog.waitFor();
    await settled(page); // the dialog, once it has finished opening
    const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('sheet-template').click()]);
    expect(template.suggestedFilename()).toBe('终端管理续期模板.xlsx');
    expect((await downloadedRows((await template.path())!))[0]).toEqual(['终端编号', '服务结束']);

    const header = ['终端编号', '服务结束'];
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'renew-bad.xlsx',
      mimeType: XLSX_TYPE,
      buffer: await xlsx([header, [a, '2031-03-31'], ['NOSUCH01', '2031-03-31']]),
    });
    await dialog.getByTestId('sheet-errors').getByText('终端编号“NOSUCH01”不存在或无权使用').waitFor();
    expect((await api('GET', `/vehicle/terminal/${first.data[0].id}`)).serviceEnd).not.toBe('2031-03-31');

    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'renew.xlsx', mimeType: XLSX_TYPE, buffer: await xlsx([header, [a, '2031-03-31'], [b, '2031-04-30']]) });
    await dialog.getByTestId('sheet-valid').getByText('全部2行数据有效').waitFor();
    await reloading(page, 'terminal', () => dialog.getByRole('button', { name: /确认续期/ }).click());
    await page.locator('.ant-message-notice').getByText('成功续期2条数据').waitFor();
    await rows(page, 'terminal').filter({ hasText: '2031-04-30' }).waitFor();
    expect((await api('GET', `/vehicle/terminal/${first.data[0].id}`)).serviceEnd).toBe('2031-03-31');
    await context.close();
  });
});

describe('vehicles', () => {
  it("shows an expired vehicle's licence in red, opening the service-expired dialog; a valid one links to its detail, whose tab is named by the licence at once", async () => {
    const { page, context } = await adminPage();
    await reloading(page, 'vehicle', () => page.goto('/fleet/vehicleList'));
    const today = new Date().toISOString().slice(0, 10);
    const expired = (await api('POST', '/vehicle/vehicle/query', { criteria: { serviceEnd: [null, '2026-01-31'] }, pageSize: 1 })).data[0];
    expect(expired.serviceEnd < today).toBe(true);
    await search(page, 'vehicle', expired.licence);
    const red = rows(page, 'vehicle').getByTestId('licence-expired');
    await red.waitFor();
    expect(await red.innerText()).toBe(expired.licence);
    expect(await red.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 77, 79)');
    await red.click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: '车辆服务已到期' });
    await dialog
      .getByTestId('expired-message')
      .getByText(`车辆 ${expired.licence} 的服务已于 ${expired.serviceEnd} 到期`, { exact: false })
      .waitFor();
    await dialog.getByText(expired.terminalNo).waitFor();
    await settled(page);
    await screenshot(page, 'fleet-vehicle-service-expired');

    // Renewed from the dialog: a year on is proposed; the licence is no longer red.
    await dialog.getByTestId('expired-renew').click();
    const form = page.locator('.ant-modal-content').filter({ hasText: `服务续期：${expired.licence}` });
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/vehicle/vehicle/editService/${expired.id}`)),
      form.getByRole('button', { name: /服务续期/ }).click(),
    ]);
    expect(saved.status()).toBe(200);
    const renewed = (await saved.json()) as { serviceEnd: string };
    expect(renewed.serviceEnd > today).toBe(true);
    await page.locator('.ant-message-notice').getByText(`${expired.licence} 的服务已续期至 ${renewed.serviceEnd}`).waitFor();
    await rows(page, 'vehicle').getByTestId('licence-link').waitFor();

    // A valid vehicle links to its detail route.
    const valid = (await api('POST', '/vehicle/vehicle/query', { criteria: { serviceEnd: ['2027-01-01', null] }, pageSize: 1 })).data[0];
    await search(page, 'vehicle', valid.licence);
    const link = rows(page, 'vehicle').getByTestId('licence-link');
    expect(await link.getAttribute('href')).toBe(`/vehicleDetail/vehicleDetail/${valid.id}`);
    expect(await rows(page, 'vehicle').getByTestId('licence-expired').count()).toBe(0);
    // Its tab is named by the licence from the click on, before the detail has loaded (held here).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/vehicle/vehicleReport/${valid.id}`, async (route) => {
      await held;
      await route.continue().catch(() => undefined); // the context may be closing
    });
    await link.click();
    await page.waitForURL((url) => url.pathname === `/vehicleDetail/vehicleDetail/${valid.id}`);
    await page.locator('.fs-tags .ant-tabs-tab').filter({ hasText: valid.licence }).waitFor();
    release();
    await page.getByTestId('detail-licence').getByText(valid.licence).waitFor();
    await context.close();
  });

  it('binds a free terminal found by number, then unbinds it after confirming', async () => {
    const created = await http(
      suite.server.url + '/api/vehicle/terminal',
      'PUT',
      { terminalNo: 'BIND0001', sim: '14400880001' },
      suite.adminToken,
    );
    expect(created.status).toBe(201);
    const vehicle = (await api('POST', '/vehicle/vehicle/query', { criteria: { keyword: '浙A' }, pageSize: 1 })).data[0];
    await api('PUT', `/vehicle/vehicle/unbind/${vehicle.id}`);

    const { page, context } = await adminPage();
    await reloading(page, 'vehicle', () => page.goto('/fleet/vehicleList'));
    await search(page, 'vehicle', vehicle.licence);
    const row = rows(page, 'vehicle').filter({ hasText: vehicle.licence });
    await row.getByTestId('row-bind').click();
    const dialog = page.locator('.ant-modal-content').filter({ hasText: `为车辆 ${vehicle.licence} 绑定终端` });
    await settled(page); // as a person would: the dropdown takes the select's width once the dialog has opened
    await dialog.locator('.ant-select').click();
    const [suggested] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/vehicle/device/terminal/suggest/vendee-0/BIND')),
      page.keyboard.type('BIND'),
    ]);
    expect(suggested.status()).toBe(200);
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'BIND0001（SIM 14400880001）' });
    await option.waitFor();
    await settled(page);
    await screenshot(page, 'fleet-vehicle-bind');
    await option.click();
    await reloading(page, 'vehicle', () => dialog.getByRole('button', { name: /绑定终端/ }).click());
    await page.locator('.ant-message-notice').getByText(`车辆 ${vehicle.licence} 已绑定终端 BIND0001`).waitFor();
    await row.filter({ hasText: 'BIND0001' }).waitFor();
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).terminalNo).toBe('BIND0001');

    await row.getByTestId('row-unbind').click();
    await page.locator('.ant-popconfirm').getByText(`确定解除车辆 ${vehicle.licence} 与终端 BIND0001 的绑定？`).waitFor();
    await reloading(page, 'vehicle', () =>
      page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /解绑终端/ })
        .click(),
    );
    await page.locator('.ant-message-notice').getByText(`车辆 ${vehicle.licence} 已解绑终端 BIND0001`).waitFor();
    await row.getByTestId('row-bind').waitFor();
    expect((await api('GET', `/vehicle/vehicle/queryById/${vehicle.id}`)).terminalNo).toBeUndefined();
    await context.close();
  });
});
