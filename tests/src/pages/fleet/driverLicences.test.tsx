import { act, fireEvent, screen, within } from '@testing-library/react';
import LicenceExpiryButton from '../../../../src/pages/fleet/driver/LicenceExpiryButton';
import * as licenceCalls from '../../../../src/services/fleet';
import { resetNavigation } from '../../../../src/session/navigationStore';
import { grant, mocked, polyfillMatchMedia, renderConsole, settle } from '../../components/consoleHarness';

// The route is covered by tests/server/driverLicence.test.ts; here, the dialog around it.
jest.mock('../../../../src/services/fleet', () => ({
  ...jest.requireActual('../../../../src/services/fleet'),
  queryLicenceExpiries: jest.fn(),
}));
const query = mocked(licenceCalls.queryLicenceExpiries);

const row = (id: number, name: string, licenseExpire: string, daysLeft: number, vehicles: Array<{ id: number; licence: string }> = []) => ({
  id,
  name,
  mobile: `1370000000${id}`,
  orgId: 3,
  orgName: '上海车队',
  licenseNo: `LIC${id}`,
  licenseClass: 'B2',
  licenseExpire,
  daysLeft,
  status: 'active',
  vehicles,
});
const page = (data: unknown[], total = data.length, pageIndex = 1, pageSize = 10) => ({
  data,
  total,
  totalExact: true,
  pageIndex,
  pageSize,
});

beforeAll(polyfillMatchMedia);
afterEach(() => {
  jest.clearAllMocks();
  act(() => resetNavigation());
});

async function openDialog() {
  fireEvent.click(screen.getByTestId('driver-licences'));
  await settle();
  return document.querySelector('.ant-modal') as HTMLElement;
}

const bodyRows = (dialog: HTMLElement) => [...dialog.querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];

describe('driver licence expiry', () => {
  it('is offered only to holders of driver-edit', () => {
    grant('driver-add', 'driver-import');
    renderConsole(<LicenceExpiryButton />);
    expect(screen.queryByTestId('driver-licences')).toBeNull();
    grant('driver-edit');
    expect(screen.getByTestId('driver-licences').textContent).toContain('驾驶证到期');
  });

  it('lists the next 30 days at first, expired rows in red with their vehicles, and searches another look-ahead', async () => {
    grant('driver-edit');
    query.mockResolvedValueOnce(
      page([
        row(1, '过期甲', '2026-11-12', -10, [
          { id: 9, licence: '沪A10137' },
          { id: 8, licence: '沪A10274' },
        ]),
        row(2, '今日乙', '2026-11-22', 0),
        row(3, '将到丙', '2026-12-12', 20),
      ]),
    );
    renderConsole(<LicenceExpiryButton />);
    const dialog = await openDialog();
    expect(query).toHaveBeenCalledWith({ withinDays: 30, pageIndex: 1, pageSize: 10 });
    expect(within(dialog).getByText('驾驶证到期提醒')).toBeTruthy();
    const [expired, today, soon] = bodyRows(dialog);
    expect(expired.getAttribute('data-testid')).toBe('licence-expired-row');
    expect(expired.style.color).toBe('rgb(255, 77, 79)');
    expect(within(expired).getByText('已过期')).toBeTruthy();
    expect(within(expired).getByText('沪A10137, 沪A10274')).toBeTruthy();
    expect(within(expired).getByText('-10')).toBeTruthy();
    expect(today.style.color).toBe('');
    expect(within(today).getByText('今天到期')).toBeTruthy();
    expect(within(today).getByText('未分配车辆')).toBeTruthy();
    expect(soon.style.color).toBe('');
    expect(within(soon).queryByText('已过期')).toBeNull();
    expect(within(dialog).getByText('共 3 条')).toBeTruthy();

    query.mockResolvedValueOnce(page([row(1, '过期甲', '2026-11-12', -10)]));
    const days = within(dialog).getByTestId('licence-within-days') as HTMLInputElement;
    fireEvent.change(days, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByTestId('licence-search'));
    await settle(50);
    expect(query).toHaveBeenLastCalledWith({ withinDays: 0, pageIndex: 1, pageSize: 10 });
    expect(bodyRows(dialog).map((r) => r.querySelector('td')!.textContent)).toEqual(['过期甲']);
  });

  it('refuses an empty look-ahead on the field, without asking the server', async () => {
    grant('driver-edit');
    query.mockResolvedValue(page([]));
    renderConsole(<LicenceExpiryButton />);
    const dialog = await openDialog();
    expect(within(dialog).getByText('没有已过期或即将到期的驾驶证')).toBeTruthy();
    const days = within(dialog).getByTestId('licence-within-days') as HTMLInputElement;
    fireEvent.change(days, { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('licence-search'));
    await settle(50);
    expect(await within(dialog).findByText('请输入 0–365 的整数')).toBeTruthy();
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('asks for the next page of a long list', async () => {
    grant('driver-edit');
    const ten = Array.from({ length: 10 }, (_, i) => row(i + 1, `驾驶员${i + 1}`, '2026-11-30', 8));
    query
      .mockResolvedValueOnce(page(ten, 12))
      .mockResolvedValueOnce(page([row(11, '驾驶员11', '2026-12-01', 9), row(12, '驾驶员12', '2026-12-02', 10)], 12, 2));
    renderConsole(<LicenceExpiryButton />);
    const dialog = await openDialog();
    fireEvent.click(dialog.querySelector('.ant-pagination-item-2')!);
    await settle(50);
    expect(query).toHaveBeenLastCalledWith({ withinDays: 30, pageIndex: 2, pageSize: 10 });
    expect(bodyRows(dialog).map((r) => r.querySelector('td')!.textContent)).toEqual(['驾驶员11', '驾驶员12']);
  });
});
