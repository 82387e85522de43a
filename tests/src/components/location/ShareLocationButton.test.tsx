import { act, fireEvent, screen, within } from '@testing-library/react';
import ShareLocationButton from '../../../../src/components/location/ShareLocationButton';
import * as shareService from '../../../../src/services/share';
import { resetNavigation } from '../../../../src/session/navigationStore';
import { grant, mocked, polyfillMatchMedia, renderConsole, settle } from '../consoleHarness';

// The calls are covered by the server's integration tests; here, the dialog around them.
jest.mock('../../../../src/services/share', () => ({
  ...jest.requireActual('../../../../src/services/share'),
  createShare: jest.fn(),
  listShares: jest.fn(),
  revokeShare: jest.fn(),
}));
const createShare = mocked(shareService.createShare);
const listShares = mocked(shareService.listShares);
const revokeShare = mocked(shareService.revokeShare);

const TICKET = 'x'.repeat(43);
const listed = (id: number, status: string) => ({
  id,
  vehicleId: 7,
  status,
  createdAt: '2026-11-20T08:00:00Z',
  expiresAt: '2026-11-21T08:00:00Z',
  createdBy: '系统管理员',
});

// Rendering antd's dialogs in jsdom takes 15–30 s a test alone, and past a minute on a loaded machine.
jest.setTimeout(180_000);

beforeAll(polyfillMatchMedia);
afterEach(() => {
  jest.clearAllMocks();
  act(() => resetNavigation());
});

async function openDialog() {
  fireEvent.click(screen.getByTestId('share-location'));
  await settle();
  return document.querySelector('.ant-modal') as HTMLElement;
}

describe('share location button', () => {
  it('is shown only to holders of vehicle-edit', () => {
    grant('vehicle-add');
    renderConsole(<ShareLocationButton vehicleId={7} />);
    expect(screen.queryByTestId('share-location')).toBeNull();
    grant('vehicle-edit');
    expect(screen.getByTestId('share-location').textContent).toContain('分享位置');
  });

  it('creates a link with the chosen validity, shows it once with copy, and lists the tickets', async () => {
    grant('vehicle-edit');
    listShares.mockResolvedValueOnce([]).mockResolvedValue([listed(3, 'active'), listed(2, 'revoked')]);
    createShare.mockResolvedValue({
      id: 3,
      vehicleId: 7,
      ticket: TICKET,
      path: `/location/${TICKET}`,
      createdAt: '2026-11-20T08:00:00Z',
      expiresAt: '2026-11-21T08:00:00Z',
    });
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderConsole(<ShareLocationButton vehicleId={7} />);
    const dialog = await openDialog();
    expect(listShares).toHaveBeenCalledWith(7);
    expect(within(dialog).getByText('暂无分享链接')).toBeTruthy();
    // Validity: 7 days.
    fireEvent.mouseDown(within(dialog).getByTestId('share-validity').querySelector('.ant-select-selector')!);
    await settle();
    fireEvent.click(screen.getByText('7 天'));
    fireEvent.click(within(dialog).getByTestId('share-create'));
    await settle();
    expect(createShare).toHaveBeenCalledWith(7, 168);
    const link = `${window.location.origin}/location/${TICKET}`;
    expect((within(dialog).getByTestId('share-link').querySelector('input') as HTMLInputElement).value).toBe(link);
    expect(within(dialog).getByText('链接只显示这一次，请立即复制保存')).toBeTruthy();
    fireEvent.click(within(dialog).getByText(/^复\s*制$/));
    await settle();
    expect(writeText).toHaveBeenCalledWith(link);
    expect(await screen.findByText('已复制')).toBeTruthy();
    // The list was read again: statuses by name, revoke only for live tickets.
    expect(listShares).toHaveBeenCalledTimes(2);
    const rows = dialog.querySelectorAll('tbody tr');
    expect(rows.length).toBe(2);
    expect(within(rows[0] as HTMLElement).getByText('有效')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('撤销')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('已撤销')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).queryByText('撤销')).toBeNull();
  });

  it('revokes a ticket after confirmation, says so and forgets the link shown', async () => {
    grant('vehicle-edit');
    listShares.mockResolvedValueOnce([listed(5, 'active')]).mockResolvedValue([listed(5, 'revoked')]);
    revokeShare.mockResolvedValue(undefined);
    renderConsole(<ShareLocationButton vehicleId={7} />);
    const dialog = await openDialog();
    fireEvent.click(within(dialog.querySelector('tbody') as HTMLElement).getByText('撤销'));
    await settle();
    expect(revokeShare).not.toHaveBeenCalled(); // asks first
    expect(screen.getByText('撤销后该链接立即失效，确定撤销？')).toBeTruthy();
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await settle();
    expect(revokeShare).toHaveBeenCalledWith(5);
    expect(await screen.findByText('链接已撤销')).toBeTruthy();
    expect(within(dialog.querySelector('tbody') as HTMLElement).getByText('已撤销')).toBeTruthy();
  });

  it('keeps the dialog usable when creating fails (the request layer shows why)', async () => {
    grant('vehicle-edit');
    listShares.mockResolvedValue([]);
    createShare.mockRejectedValue({
      response: { status: 406, data: { message: '该车辆的有效分享链接已达上限（20 个），请先撤销不用的链接' } },
    });
    renderConsole(<ShareLocationButton vehicleId={7} />);
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByTestId('share-create'));
    await settle();
    expect(createShare).toHaveBeenCalledWith(7, 24);
    expect(within(dialog).queryByTestId('share-link')).toBeNull();
    expect((within(dialog).getByTestId('share-create') as HTMLButtonElement).disabled).toBe(false);
  });
});
