import { freePort } from '../helpers/serverProcess';
import { screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The command dialog's terminal operations in a real browser against `npm start` with a one-terminal
 * demo fleet (the simulator answers): the terminal's attributes shown as it answered them, the doors
 * locked with the answer's door state, a platform fence set on the terminal, a remote upgrade
 * uploaded and sent, and a district fence refused with the server's reason.
 */
jest.setTimeout(240_000);

const suite = useConsoleSuite({
  env: async () => ({ JT808_PORT: String(await freePort()), SIMULATE: '1' }),
});
const { api } = suite;

const PHONE = '808000000001'; // the first demo terminal: the one-terminal demo fleet drives it

async function until(check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('terminal operations in the command dialog', () => {
  it('shows the attributes, locks the doors, sets a fence, upgrades the terminal and refuses a district fence with the reason', async () => {
    const found = await api('POST', '/vehicle/terminal/query', { criteria: { terminalNo: PHONE }, pageIndex: 1, pageSize: 5 });
    const id = found.data.find((t: { terminalNo: string }) => t.terminalNo === PHONE).id as number;
    await until(async () => (await api('GET', `/vehicle/terminal/${id}/registration`)).online === true);
    const circle = await api('PUT', '/vehicle/fence', {
      name: '终端圆形围栏',
      fenceType: 'circle',
      geometry: { center: [121.47, 31.23], radius: 800 },
    });
    const district = await api('PUT', '/vehicle/fence', {
      name: '终端区县围栏',
      fenceType: 'district',
      geometry: { districtCode: '310101' },
    });

    const { page, context } = await suite.adminPage();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/terminal/query')), page.goto('/fleet/terminal')]);
    const row = page.getByTestId('entity-page-terminal').locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: PHONE });
    await row.getByTestId('row-command').click();
    await page.getByTestId('command-send').waitFor();
    await settled(page);

    // Attributes: the terminal's answer, field by field.
    await page.getByTestId('command-kind-attributes').click();
    await page.getByTestId('command-send').click();
    await page.waitForSelector('[data-testid=command-status][data-status=acked]', { timeout: 30_000 });
    expect(await page.getByTestId('attribute-model').innerText()).toBe('FS-OBD-1');
    expect(await page.getByTestId('attribute-firmwareVersion').innerText()).toBe('sim-1.0');
    await screenshot(page, 'terminal-command-attributes');

    // Doors: locked, as the 0x0500 answer's status says.
    await page.getByTestId('command-kind-doors').click();
    await page.getByTestId('command-send').click();
    await page.getByTestId('command-answer').getByText('终端应答：车门已加锁').waitFor({ timeout: 30_000 });

    // A fence of the platform set on the terminal, answered "done".
    await page.getByTestId('command-kind-fence').click();
    await page.getByTestId('fence-pick').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '终端圆形围栏' }).click();
    // The district fence is not offered: a terminal cannot hold it.
    await page.getByTestId('fence-pick').click();
    expect(await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '终端区县围栏' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    const [sent] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/terminal/${id}/command/fence`)),
      page.getByTestId('command-send').click(),
    ]);
    expect(sent.request().postDataJSON()).toMatchObject({ fenceId: circle.id, action: 'set' });
    await page.getByTestId('command-answer').getByText('终端应答: 成功/确认').waitFor({ timeout: 30_000 });
    await screenshot(page, 'terminal-command-fence');
    // Remote upgrade: a package uploaded in the dialog, picked, sent in packets; the terminal reports it upgraded.
    await page.getByTestId('command-kind-upgrade').click();
    await page.getByTestId('upgrade-maker').fill('FSSIM');
    await page.getByTestId('upgrade-version').fill('V9.9.9');
    const [uploaded] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/vehicle/upgradePackage?')),
      page
        .locator('.ant-modal input[type=file]')
        .setInputFiles({ name: 'fw.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(3000, 5) }),
    ]);
    expect(uploaded.status()).toBe(201);
    await page.locator('[data-testid=upgrade-pick]').filter({ hasText: 'V9.9.9' }).waitFor();
    await page.getByTestId('command-send').click();
    await page.getByTestId('command-answer').getByText('终端应答: 升级成功').waitFor({ timeout: 30_000 });
    // The package's results per terminal, read again once the send ended.
    await page.getByTestId('upgrade-results').locator('tr').filter({ hasText: PHONE }).getByText('升级成功').waitFor();
    await screenshot(page, 'terminal-command-upgrade');
    const list = (await api('GET', `/vehicle/terminal/${id}/command`)) as { kind: string; status: string }[];
    expect(list.slice(0, 4).map((c) => [c.kind, c.status])).toEqual([
      ['upgrade', 'acked'],
      ['fence', 'acked'],
      ['vehicleControl', 'acked'],
      ['attributes', 'acked'],
    ]);
    // Asked through the API, the district fence is refused with the reason (the dialog shows the same words).
    const refused = await fetch(`${suite.server.url}/api/vehicle/terminal/${id}/command/fence`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.adminToken}` },
      body: JSON.stringify({ fenceId: district.id, action: 'set' }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('行政区域围栏无法下发到终端');
    await context.close();
  });
});
