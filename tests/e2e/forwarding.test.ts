import pg from 'pg';
import { freshPostgres } from '../helpers/testServer';
import { Superior } from '../server/forwarding/superior';
import { useConsoleSuite } from './helpers/console';
import { watch } from './helpers/pageChecks';

/**
 * The forwarding links page in a real browser against `npm start`: a JT/T 809 link configured for
 * an organisation logs in to a superior platform the test runs; the page (reached from its menu
 * entry) shows the link up with its counters, then down with its error once the superior stops, in
 * Chinese and in English.
 */
jest.setTimeout(600_000);

const account = { userId: 8090, password: 'pw809sec', accessCode: 44030012 };
let superior: Superior | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
const suite = useConsoleSuite({
  env: async () => {
    superior = new Superior({ edition: 2019, ...account });
    await superior.start();
    // A database of its own holding the link before the server starts (it reads its links at start).
    const db = await freshPostgres({ seeded: true });
    dropDatabase = db.drop;
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(
      `INSERT INTO forward_link (org_id, name, protocol, host, port, access_code, user_id, password, down_link_port)
       SELECT id, '省级平台', 'jt809', '127.0.0.1', $1, $2, $3, $4, 0 FROM organisation WHERE code = 'HD'`,
      [superior.port, account.accessCode, account.userId, account.password],
    );
    await c.end();
    // The superior runs on this machine: the outbound address guard refuses loopback unless allowed.
    return { DATABASE_URL: db.url, FORWARD_ALLOW: '127.0.0.1' };
  },
});
afterAll(async () => {
  await superior?.stop();
  await dropDatabase?.();
});

describe('forwarding links page', () => {
  it('shows a link up with its counters, then down once the superior stops', async () => {
    expect(await suite.api('GET', '/vehicle/forwarding')).toEqual([expect.objectContaining({ name: '省级平台', protocol: 'jt809' })]);
    const { page } = await suite.adminPage();
    page.setDefaultTimeout(30_000);
    const problems = watch(page);
    const listed = (r: { url(): string; request(): { method(): string } }) =>
      new URL(r.url()).pathname === '/api/vehicle/forwarding' && r.request().method() === 'GET';
    const sidebar = page.getByTestId('sidebar-menu');
    const item = sidebar.locator('li.ant-menu-item[data-menu-id$="-/operation/forwarding"]');
    await sidebar.locator('.ant-menu-submenu-title[data-menu-id$="-/operation"]').click();
    await item.waitFor({ state: 'visible' });
    await sidebar.locator('.ant-motion-collapse').first().waitFor({ state: 'detached' });
    await item.getByText('转发链路').waitFor();
    await Promise.all([page.waitForResponse(listed), item.click()]);
    await page.waitForURL('**/operation/forwarding');
    const row = page.getByTestId('forwarding-page').locator('.ant-table-row').filter({ hasText: '省级平台' });
    await row.waitFor();
    await row.getByText('JT/T 809 上级平台').waitFor();
    await row.getByText(`127.0.0.1:${superior!.port}`).waitFor();
    await row.getByTestId('forwarding-state').getByText('已连接').waitFor();
    expect(superior!.logins).toHaveLength(1);

    await superior!.stop();
    await page.getByTestId('forwarding-refresh').click();
    await row
      .getByTestId('forwarding-state')
      .getByText(/已断开|连接中/)
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('speaks English', async () => {
    const { page } = await suite.adminPage('en-US');
    page.setDefaultTimeout(30_000);
    const problems = watch(page);
    await page.goto('/operation/forwarding');
    const card = page.getByTestId('forwarding-page');
    await card.getByText('Forwarding links', { exact: true }).waitFor();
    await card.locator('.ant-table-row').getByText('JT/T 809 superior platform').waitFor();
    await card.getByRole('columnheader', { name: 'Refused logins' }).waitFor();
    expect(problems).toEqual([]);
  });
});
