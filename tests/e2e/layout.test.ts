import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { encodeMessage, MsgId } from '../../server/telematics/jt808/codec';
import { freePort, http } from '../helpers/serverProcess';
import { screenshot, useConsoleSuite } from './helpers/console';

/**
 * Layout (SPEC.md §2, §9), the JT/T 808 decode page and the public location page in a real browser,
 * against `npm start` on a fresh demo database with its gateway and demo fleet running (so shared
 * vehicles have positions). One console build, one server and one browser for the file.
 */
jest.setTimeout(240_000);

// The gateway on a free port and every demo terminal reporting, every 10 s.
const suite = useConsoleSuite({ env: async () => ({ JT808_PORT: String(await freePort()), SIMULATE: '24' }) });
const { api } = suite;

/** Logged in as admin in a fresh browser profile of this size. */
const adminPage = (width: number, height: number) => suite.adminPage('zh-CN', (page) => page.setViewportSize({ width, height }));

const drawerOpen = (page: Page) => page.locator('.ant-drawer-open [data-testid=sidebar-menu]');

/** Two frames, then until the drawer's slide and its menu's unfolding have ended (rc-motion tags them only while they move). */
async function stillDrawer(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '.ant-drawer [class*="-motion-"][class*="-enter"], .ant-drawer [class*="-motion-"][class*="-appear"], .ant-drawer-open .ant-motion-collapse',
      ),
  );
}

describe('layout', () => {
  it('on a phone (390×844) the sidebar is a drawer: opened from the navbar, closed after choosing a menu', async () => {
    const { page, context } = await adminPage(390, 844);
    expect(await page.locator('.fs-sider').count()).toBe(0);
    expect(await drawerOpen(page).count()).toBe(0);
    await page.getByTestId('sidebar-toggle').click();
    await drawerOpen(page).waitFor();
    // The drawer slides in, then the area unfolds: each click once what it aims at stands still.
    await stillDrawer(page);
    await screenshot(page, 'layout-mobile-drawer');
    await drawerOpen(page).getByText('系统管理', { exact: true }).click();
    await drawerOpen(page).getByText('角色管理', { exact: true }).waitFor();
    await stillDrawer(page);
    await drawerOpen(page).getByText('角色管理', { exact: true }).click();
    await page.waitForURL('**/system/role');
    await drawerOpen(page).waitFor({ state: 'detached' });
    expect(await page.locator('.ant-drawer-open').count()).toBe(0);
    await context.close();
  });

  it('under 992 px the sidebar closes by itself, and comes back as it was above', async () => {
    const { page, context } = await adminPage(1280, 760);
    const sider = page.locator('.fs-sider');
    await sider.waitFor();
    expect(await sider.evaluate((el) => el.getBoundingClientRect().width)).toBe(210);
    await page.setViewportSize({ width: 991, height: 760 });
    await sider.waitFor({ state: 'detached' });
    expect(await drawerOpen(page).count()).toBe(0);
    // The menu is still one tap away.
    await page.getByTestId('sidebar-toggle').click();
    await drawerOpen(page).waitFor();
    await page.setViewportSize({ width: 992, height: 760 });
    await sider.waitFor();
    expect(await sider.evaluate((el) => el.getBoundingClientRect().width)).toBe(210);
    await context.close();
  });

  it('the fullscreen toggle enters and leaves fullscreen', async () => {
    const { page, context } = await adminPage(1280, 760);
    const isFull = () => page.evaluate(() => document.fullscreenElement !== null);
    expect(await isFull()).toBe(false);
    await page.getByRole('button', { name: '全屏', exact: true }).click();
    await page.waitForFunction(() => document.fullscreenElement !== null);
    await page.getByRole('button', { name: '退出全屏', exact: true }).click();
    await page.waitForFunction(() => document.fullscreenElement === null);
    expect(await isFull()).toBe(false);
    await page.getByRole('button', { name: '全屏', exact: true }).waitFor();
    await context.close();
  });
});

describe('JT/T 808 decode page', () => {
  it('decodes a pasted 0x0200 frame and shows a bad frame’s error on its own line', async () => {
    const frame = encodeMessage(
      { phone: '808000000001', serial: 7, version: 2013 },
      {
        msgId: MsgId.Location,
        body: {
          alarm: { active: ['overspeed'] },
          status: { accOn: true, fixed: true, gps: true },
          latitude: 31.2304,
          longitude: 121.4737,
          altitude: 12,
          speed: 42.5,
          direction: 270,
          time: '2026-11-20T08:00:00Z',
          extras: { mileageKm: 1234.5, satellites: 11 },
        },
      },
    )
      .toString('hex')
      .toUpperCase()
      .replace(/(..)/g, '$1 ')
      .trim();
    const badChecksum = '7E 00 02 00 00 01 23 45 67 89 00 00 0A 00 7E';
    const { page, context, external } = await adminPage(1280, 900);
    await page.goto('/tools/jt808');
    await page.getByTestId('jt808-input').fill(`${frame}\n${badChecksum}\nnot hex`);
    await page.getByTestId('jt808-decode').click();
    await page.getByTestId('jt808-summary').getByText('共 3 条：成功 1 条，失败 2 条').waitFor();
    const card = page.getByTestId('jt808-frame');
    await card.getByText('0x0200 位置信息汇报').waitFor();
    for (const text of [
      '808000000001',
      '超速报警',
      'ACC 开',
      '已定位',
      '使用 GPS',
      '31.2304°',
      '121.4737°',
      '42.5 km/h',
      '270°',
      '2026-11-20 16:00:00 (UTC+08:00)',
      '里程（km）',
      '1234.5',
      '定位卫星数',
    ]) {
      await card.getByText(text, { exact: true }).first().waitFor();
    }
    const errors = page.getByTestId('jt808-error');
    expect(await errors.count()).toBe(2);
    await errors
      .nth(0)
      .getByText(/第 2 行 · 解码失败: 校验码错误/)
      .waitFor();
    await errors
      .nth(1)
      .getByText(/第 3 行 · 解码失败: 不是十六进制报文/)
      .waitFor();
    // The decoder's own (English) text is marked as such, after the cause in Chinese.
    await errors.nth(0).getByText('解码器原文（供技术支持）：').waitFor();
    await screenshot(page, 'jt808-decode');
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('configuration parse files', () => {
  it('uploads a row’s XML, shows the server’s refusals, and downloads the file kept', async () => {
    const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<config model="J6P"><pid id="0x0536" name="转速"/></config>\n');
    const laughs = Buffer.from('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>');
    const record = await api('POST', '/vehicle/configParseFile', { name: 'E2E 解析文件' });
    const { page, context, external } = await adminPage(1280, 900);
    await page.goto('/fleet/configParseFile');
    const row = page.getByTestId('entity-page-configParseFile').locator('tr.ant-table-row').filter({ hasText: 'E2E 解析文件' });
    await row.waitFor();
    expect(await row.getByTestId('xml-download').count()).toBe(0);
    const toast = (text: string) => page.locator('.ant-message-notice').getByText(text, { exact: true }).waitFor();

    await row.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: xml });
    await toast('只能上传 xml 文件');
    await row.locator('input[type=file]').setInputFiles({ name: 'laughs.xml', mimeType: 'text/xml', buffer: laughs });
    await toast('XML 文件不能包含 DOCTYPE 或实体声明');
    await row.locator('input[type=file]').setInputFiles({ name: 'j6p.xml', mimeType: 'text/xml', buffer: xml });
    await toast('上传成功');
    await row.getByText('j6p.xml', { exact: true }).waitFor();
    expect((await api('GET', `/vehicle/configParseFile/${record.id}`)).fileSize).toBe(xml.length);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('xml-download').click()]);
    expect(download.suggestedFilename()).toBe('j6p.xml');
    expect(fs.readFileSync(await download.path()).equals(xml)).toBe(true);
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('public location page', () => {
  it('shows a shared vehicle without signing in, refreshing, from our server only; an unknown ticket is a clear dead end', async () => {
    const vehicles = await api('POST', '/vehicle/vehicle/query', { criteria: {}, pageSize: 100 });
    const vehicle = vehicles.data.find((v: { terminalId?: number }) => v.terminalId);
    const share = await api('POST', '/vehicle/share', { vehicleId: vehicle.id, hours: 24 });
    // The demo fleet reports every 10 s: wait for this vehicle's first position.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const r = await http(`${suite.server.url}/api/location/${share.ticket}`, 'GET');
      if (r.json?.position) break;
      if (Date.now() > deadline) throw new Error(`no position for ${vehicle.licence}: ${r.text}`);
      await new Promise((res) => setTimeout(res, 3000));
    }
    const { page, context, external } = await suite.freshPage();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto(share.path);
    expect(new URL(page.url()).pathname).toBe(share.path); // no detour to /login
    await page.getByTestId('location-licence').getByText(vehicle.licence, { exact: true }).waitFor();
    await page.getByText('WGS-84 坐标（GPS）').waitFor();
    await page.getByText('GCJ-02 坐标（国内地图）').waitFor();
    await page.getByText(/^每 30 秒自动刷新，最后刷新：/).waitFor();
    expect(await page.getByTestId('location-map').count()).toBe(0);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('token');
    await screenshot(page, 'location-share');
    expect(external).toEqual([]);

    await page.goto(`/location/${'A'.repeat(43)}`);
    await page.getByTestId('location-invalid').getByText('链接无效或已过期').waitFor();
    // Revoked: the same dead end.
    await api('DELETE', `/vehicle/share/${share.id}`);
    await page.goto(share.path);
    await page.getByTestId('location-invalid').getByText('链接无效或已过期').waitFor();
    expect(external).toEqual([]);
    await context.close();
  });
});
