import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Modal } from 'antd';
// First: it loads @umijs/max before the request config does (src/app.tsx imports that config back).
import { polyfillMatchMedia, renderConsole } from '../../../components/consoleHarness';
import { schemaEntities } from '../../../../../schemas/generated/registry';
import EntityForm from '../../../../../src/components/schema/EntityForm';
import { accountExtensions } from '../../../../../src/pages/system/account';
import { call } from '../../../../../src/services/http/call';
import { registerMember } from '../../../../../src/services/passport';

// The dialog's own calls (register, edit) go through the one API layer; the options it loads and the
// "enable here" registration through the passport's functions.
jest.mock('../../../../../src/services/http/call', () => ({
  ...jest.requireActual('../../../../../src/services/http/call'),
  call: jest.fn(),
}));
jest.mock('../../../../../src/services/passport', () => ({
  ...jest.requireActual('../../../../../src/services/passport'),
  registerMember: jest.fn(),
  orgTreeOptions: jest.fn(async () => [{ value: 1, label: '车管星平台', children: [] }]),
  allRoles: jest.fn(async (application: string) =>
    application === 'obd-web' ? [{ id: 11, name: '调度员', orgName: '华东物流', application }] : [],
  ),
  memberApplications: jest.fn(async () => [{ code: 'obd-web', name: '车管星网页端' }]),
}));

const mocked = { registerMember: jest.mocked(registerMember), call: jest.mocked(call) };
/** The calls of one route (`POST /passport/passport/register`, `PUT /passport/member/4`). */
const callsOf = (method: string, url: string) => mocked.call.mock.calls.filter(([u, o]) => u === url && o.method === method);

// The whole account dialog (eleven fields, the role and application lists) renders slowly in jsdom on
// a busy machine; a test cut short would go on clicking in the next one's dialog.
jest.setTimeout(180_000);

beforeAll(polyfillMatchMedia);
afterEach(() => {
  jest.clearAllMocks();
  // Confirm dialogs are static: they outlive the rendered tree.
  Modal.destroyAll();
});

/** An axios-style rejection as the request client gives it. */
const rejection = (status: number, data: unknown) => Object.assign(new Error('Request failed'), { response: { status, data } });

function ui(member: object | null = null) {
  const onSaved = jest.fn();
  const onClose = jest.fn();
  renderConsole(
    <EntityForm
      entity="member"
      schema={schemaEntities.member}
      row={member as never}
      titles={accountExtensions.labels}
      section={accountExtensions.formSection}
      extensions={accountExtensions.form}
      onClose={onClose}
      onSaved={onSaved}
    />,
  );
  return { onSaved, onClose };
}

/** The input of the form item labelled exactly `label`. */
function input(label: string): HTMLInputElement {
  const item = [...document.querySelectorAll('.ant-form-item')].find((el) => el.querySelector('label')?.textContent === label);
  if (!item) throw new Error(`no field ${label}`);
  return item.querySelector('input')!;
}
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

async function submit() {
  await act(async () => {
    fireEvent.click(document.querySelector('.ant-modal-footer .ant-btn-primary')!);
    await new Promise((r) => setTimeout(r, 50));
  });
}

async function fillRegistration(mobile: string) {
  type('登录名', 'zhao.liu');
  type('姓名', '赵六');
  type('手机号', mobile);
  type('密码', 'Start2026x');
  type('确认密码', 'Start2026x');
  // The date picker takes a typed date on Enter.
  await act(async () => {
    fireEvent.mouseDown(input('到期日期'));
    fireEvent.change(input('到期日期'), { target: { value: '2099-12-31' } });
    fireEvent.keyDown(input('到期日期'), { key: 'Enter', keyCode: 13 });
  });
}

describe('account register form', () => {
  it('asks for the SPEC.md §5 fields and checks the phone format before calling', async () => {
    ui();
    await submit();
    expect(await screen.findByText('登录名不能为空')).toBeTruthy();
    expect(screen.getByText('姓名不能为空')).toBeTruthy();
    // No expiry is an account that never expires (issue: required with no default).
    expect(screen.queryByText('到期日期不能为空')).toBeNull();
    expect(screen.getByText('请再次输入你的登录密码')).toBeTruthy();
    await fillRegistration('12345');
    await submit();
    expect(await screen.findByText('手机号格式不正确')).toBeTruthy();
    expect(mocked.registerMember).not.toHaveBeenCalled();
  });

  it('offers to enable an account registered on another platform, and enables it when the operator agrees', async () => {
    const other = { field: 'mobile', key: 'passport.phoneOnOtherPlatform', message: '该手机号已在其他平台注册，是否在本平台启用？' };
    mocked.call.mockRejectedValueOnce(rejection(406, { code: 'passport.phoneOnOtherPlatform', message: other.message, errors: [other] }));
    mocked.registerMember.mockResolvedValueOnce({ success: true, message: '已在本平台启用该账号', object: { id: 9 } } as never);
    const { onSaved } = ui();
    await fillRegistration('13900000002');
    await submit();
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('在本平台启用账号'));
    expect(screen.getAllByText(other.message).length).toBeGreaterThan(0);
    const [first] = callsOf('POST', '/passport/passport/register');
    expect(first[1].data).toEqual(
      expect.objectContaining({ loginName: 'zhao.liu', mobile: '13900000002', expireDate: '2099-12-31', applications: ['obd-web'] }),
    );
    expect(first[1].data).not.toHaveProperty('enableExisting');
    expect(first[1].data).not.toHaveProperty('confirmPassword');
    await act(async () => {
      fireEvent.click(document.querySelector('.ant-modal-confirm-btns .ant-btn-primary')!);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(mocked.registerMember).toHaveBeenCalledTimes(1);
    expect(mocked.registerMember.mock.calls[0][0]).toMatchObject({ mobile: '13900000002', enableExisting: true });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
  });

  it("puts the server's field message on its field", async () => {
    mocked.call.mockRejectedValueOnce(
      rejection(406, { message: '手机号已存在', errors: [{ field: 'mobile', key: 'passport.phoneExists', message: '手机号已存在' }] }),
    );
    const { onSaved } = ui();
    await fillRegistration('13916880101');
    await submit();
    await waitFor(() => expect(callsOf('POST', '/passport/passport/register')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.ant-form-item-has-error')?.textContent).toContain('手机号已存在'));
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('sends only what an edit changed', async () => {
    mocked.call.mockResolvedValueOnce({} as never);
    const member = {
      id: 4,
      loginName: 'sh-dispatcher',
      name: '李明',
      mobile: '13916880102',
      memberType: 'orgUser',
      orgId: 1,
      expireDate: null,
      status: 'enabled',
      roleIds: [11],
      applications: ['obd-web'],
    };
    const { onSaved } = ui(member);
    // No password on an edit, and an account without expiry may stay so.
    expect(() => input('密码')).toThrow();
    type('姓名', '李明二');
    await submit();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(callsOf('PUT', '/passport/member/4').map(([, o]) => o.data)).toEqual([{ name: '李明二' }]);
  });
});
