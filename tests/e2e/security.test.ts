import os from 'node:os';
import { http } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, login, openPage, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The console over plain HTTP from an address other than localhost (issue 18 #7): with
 * `upgrade-insecure-requests` the browser would fetch its scripts over HTTPS and show a blank page.
 */
jest.setTimeout(180_000);

/** This machine's first non-loopback IPv4 address; 127.0.0.2 (not "localhost" either) when it has none. */
function lanAddress(): string {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.2';
}

const suite = useConsoleSuite({ env: async () => ({ HOST: '0.0.0.0' }) });

it('loads, signs in and unlocks an account when served over HTTP on a LAN address', async () => {
  const base = suite.server.url.replace('127.0.0.1', lanAddress());
  const head = await http(base + '/login', 'GET');
  expect(head.status).toBe(200);
  expect(head.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');

  const { page, context, external } = await openPage(suite.browser, base);
  const failed: string[] = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  await login(page, 'admin', ADMIN_PASSWORD);
  await page.waitForURL('**/dashboard');
  await page.getByTestId('user-menu').waitFor();
  expect(failed).toEqual([]);
  expect(external).toEqual([]);

  // The accounts page offers the administrator's unlock on each row.
  await page.goto('/system/account');
  await page.getByTestId('account-page').waitFor();
  await page.getByTestId('unlock-member').first().click();
  await settled(page);
  await page.locator('.ant-popconfirm .ant-btn-primary').click();
  await page.getByText('已解除该账号的登录锁定').waitFor();
  await context.close();
});
