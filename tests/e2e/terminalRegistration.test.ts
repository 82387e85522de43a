import net from 'node:net';
import { encodeMessage, MsgId } from '../../server/telematics/jt808/codec';
import { freePort } from '../helpers/serverProcess';
import { screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * A terminal's registration on the terminal page in a real browser against `npm start` with the
 * demo fleet: a stranger's registration for a registered terminal is refused and shows on the row's
 * registration dialog (bound hardware, the refused attempt and its address), and the reset clears
 * the registration.
 */
jest.setTimeout(240_000);

let jt808Port = 0;
const suite = useConsoleSuite({
  env: async () => {
    jt808Port = await freePort();
    return { JT808_PORT: String(jt808Port), SIMULATE: '1' };
  },
});
const { api } = suite;

const PHONE = '808000000001'; // the first demo terminal: the one-terminal demo fleet drives it

/** A 0x0100 from another source address with other hardware; resolves when the gateway closes it. */
async function strangerRegisters(): Promise<void> {
  const socket = net.connect({ host: '127.0.0.1', port: jt808Port, localAddress: '127.0.0.2' });
  socket.on('error', () => undefined);
  socket.resume(); // read (and drop) the refusal, so the gateway's close is seen
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    encodeMessage(
      { phone: PHONE, serial: 1 },
      {
        msgId: MsgId.Register,
        body: { province: 31, city: 100, makerId: 'EVIL', model: 'CLONE', terminalId: 'X000001', plateColor: 1, plate: '' },
      },
    ),
  );
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway kept the stranger connected')), 10_000);
    socket.once('close', () => resolve(clearTimeout(timer)));
  });
}

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('terminal registration on the terminal page', () => {
  it('shows the bound hardware and a stranger’s refused registration, and resets the registration', async () => {
    const found = await api('POST', '/vehicle/terminal/query', { criteria: { terminalNo: PHONE }, pageIndex: 1, pageSize: 5 });
    const id = found.data.find((t: { terminalNo: string }) => t.terminalNo === PHONE).id as number;
    await until(async () => (await api('GET', `/vehicle/terminal/${id}/registration`)).registered === true);
    await strangerRegisters();
    await until(async () => (await api('GET', `/vehicle/terminal/${id}/registration`)).refusals.length === 1);

    const { page } = await suite.adminPage();
    page.setDefaultTimeout(30_000);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/terminal/query')), page.goto('/fleet/terminal')]);
    const box = page.getByTestId('entity-page-terminal').getByPlaceholder('搜索关键字');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/terminal/query')),
      box.fill(PHONE).then(() => box.press('Enter')),
    ]);
    const row = page.getByTestId('entity-page-terminal').locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: PHONE });
    await row.getByTestId('row-registration').click();
    const dialog = page.getByTestId('registration-dialog');
    await dialog.getByText(`终端 ${PHONE} 的注册`).waitFor();
    await dialog.getByTestId('registration-state').getByText('已注册').waitFor();
    const hardware = dialog.getByTestId('registration-hardware');
    await hardware.getByText('FSSIM').waitFor();
    await hardware.getByText('FS-OBD-1').waitFor();
    const refusals = dialog.getByTestId('registration-refusals');
    await refusals.getByText('硬件与注册时不符').waitFor();
    await refusals.getByText('127.0.0.2').waitFor();
    await refusals.getByText('注册 (0x0100)').waitFor();
    await settled(page); // the dialog, not its fade-in
    await screenshot(page, 'terminal-registration');

    await dialog.getByTestId('registration-reset').click();
    await settled(page);
    const confirm = page.locator('.ant-popconfirm:visible');
    await confirm.getByText(`确定重置终端 ${PHONE} 的注册？`, { exact: false }).waitFor();
    const [reset] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/terminal/${id}/resetRegistration`)),
      confirm.getByRole('button', { name: /重置注册/ }).click(),
    ]);
    expect(reset.status()).toBe(200);
    await dialog.getByTestId('registration-state').getByText('未注册').waitFor();
    await page.getByText(`终端 ${PHONE} 的注册已重置`).waitFor();
    expect(await dialog.getByTestId('registration-reset').count()).toBe(0);
  });
});
