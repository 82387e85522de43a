import { act, fireEvent, waitFor } from '@testing-library/react';
import AuthorizeDialog from '../../../../../src/pages/system/role/AuthorizeDialog';
import { allResources, assignableResources, authorizeRole } from '../../../../../src/services/passport';
import { polyfillMatchMedia, renderConsole, resourceItem } from '../../../components/consoleHarness';

jest.mock('../../../../../src/services/passport', () => ({
  ...jest.requireActual('../../../../../src/services/passport'),
  allResources: jest.fn(),
  assignableResources: jest.fn(),
  authorizeRole: jest.fn(),
}));

const item = (id: number, code: string, name: string, kind: 'Menu' | 'Action', children: object[] = []) =>
  resourceItem({ id, code, name, kind, path: null, children });

// 车队管理 ─ 车辆管理 ─ {vehicle-add, vehicle-remove}; 系统管理 ─ 角色管理
const ALL = [
  item(1, 'fleet', '车队管理', 'Menu', [
    item(2, 'fleet-vehicleList', '车辆管理', 'Menu', [
      item(3, 'vehicle-add', '新增车辆', 'Action'),
      item(4, 'vehicle-remove', '删除车辆', 'Action'),
    ]),
  ]),
  item(5, 'system', '系统管理', 'Menu', [item(6, 'system-role', '角色管理', 'Menu')]),
];
// The caller holds everything but vehicle-remove; the role holds the vehicle page with vehicle-remove.
const ASSIGNABLE = [
  item(1, 'fleet', '车队管理', 'Menu', [item(2, 'fleet-vehicleList', '车辆管理', 'Menu', [item(3, 'vehicle-add', '新增车辆', 'Action')])]),
  ALL[1],
];

beforeAll(polyfillMatchMedia);
beforeEach(() => {
  jest.mocked(allResources).mockResolvedValue(ALL as never);
  jest.mocked(assignableResources).mockResolvedValue({ application: 'obd-web', resources: ASSIGNABLE, granted: [2, 4] } as never);
});
afterEach(() => jest.clearAllMocks());

async function ui() {
  const onClose = jest.fn();
  renderConsole(<AuthorizeDialog application="obd-web" role={{ id: 7, name: '调度员' } as never} onClose={onClose} />);
  await waitFor(() => expect(document.querySelector('[data-code="vehicle-remove"]')).toBeTruthy());
  return { onClose };
}

/** The checkbox of the tree node of a resource code, and its state. */
const box = (code: string) =>
  document.querySelector(`[data-code="${code}"]`)!.closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!;
const state = (code: string) => {
  const c = box(code).classList;
  return c.contains('ant-tree-checkbox-disabled')
    ? 'disabled'
    : c.contains('ant-tree-checkbox-checked')
      ? 'checked'
      : c.contains('ant-tree-checkbox-indeterminate')
        ? 'half'
        : 'off';
};
const save = () =>
  act(async () => {
    fireEvent.click(document.querySelector('.ant-modal-footer .ant-btn-primary')!);
    await new Promise((r) => setTimeout(r, 20));
  });

describe('authorise dialog', () => {
  it("draws the application's tree with the role's grants, what the caller cannot grant disabled", async () => {
    await ui();
    expect(jest.mocked(assignableResources)).toHaveBeenCalledWith('obd-web', 7);
    expect(['fleet', 'fleet-vehicleList', 'vehicle-add', 'vehicle-remove', 'system', 'system-role'].map(state)).toEqual([
      'half',
      'checked',
      'off',
      'disabled',
      'off',
      'off',
    ]);
    expect(box('vehicle-remove').classList.contains('ant-tree-checkbox-checked')).toBe(true);
  });

  it('cascades a check down to what the caller may grant and saves exactly the grants, parents not added', async () => {
    jest.mocked(authorizeRole).mockResolvedValue({ application: 'obd-web', resourceIds: [] });
    const { onClose } = await ui();
    act(() => void fireEvent.click(box('system')));
    expect([state('system'), state('system-role')]).toEqual(['checked', 'checked']);
    // Unchecking the vehicle page takes its grantable children, not the one the caller cannot take,
    // which keeps the page half-checked (the server still shows it above that grant).
    act(() => void fireEvent.click(box('fleet-vehicleList')));
    expect([state('fleet'), state('fleet-vehicleList'), state('vehicle-add')]).toEqual(['half', 'half', 'off']);
    await save();
    expect(jest.mocked(authorizeRole)).toHaveBeenCalledWith('obd-web', 7, [4, 5, 6]);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('says the change failed when no answer came, and stays open', async () => {
    jest.mocked(authorizeRole).mockRejectedValue(new Error('Network Error'));
    const { onClose } = await ui();
    await save();
    await waitFor(() => expect(document.body.textContent).toContain('角色权限修改失败'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
