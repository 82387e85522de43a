import { act, screen } from '@testing-library/react';
// First: it loads @umijs/max before the request config does (src/app.tsx imports that config back).
import { polyfillMatchMedia, renderConsole } from '../consoleHarness';
import { Form, Input, message, Modal, notification, type FormInstance } from 'antd';
import { translator } from '../../../../schemas/kit/catalogue';
import { saveEdit, saveEditOrAdd, submitModal } from '../../../../src/components/system/formSave';
import { registerFeedback } from '../../../../src/services/http/feedback';

const t = translator('zh-CN');
const feedback = {
  message: { success: jest.fn(), error: jest.fn(), warning: jest.fn() },
  notification: { warning: jest.fn() },
  modal: { confirm: jest.fn() },
};

beforeAll(polyfillMatchMedia);
beforeEach(() => registerFeedback(feedback));
afterEach(() => {
  jest.clearAllMocks();
  registerFeedback({ message, notification, modal: Modal });
});

/** An axios-style rejection as the request client gives it. */
const rejection = (status: number, data: unknown) => Object.assign(new Error('Request failed'), { response: { status, data } });

/** A real antd form with a name and a code field. */
function renderForm(): FormInstance {
  let form: FormInstance | undefined;
  function TestForm() {
    const [f] = Form.useForm();
    form = f;
    return (
      <Form form={f}>
        <Form.Item name="name" label="名称">
          <Input />
        </Form.Item>
        <Form.Item name="code" label="编码">
          <Input />
        </Form.Item>
      </Form>
    );
  }
  renderConsole(<TestForm />);
  return form!;
}

const submit = (...args: Parameters<typeof submitModal>) => act(() => submitModal(...args));

describe('a modal form submit', () => {
  it('closes (true) when the save succeeds, and shows nothing itself', async () => {
    const form = renderForm();
    const save = jest.fn(async () => {});
    expect(await submit(form, ['name'], '保存失败', save)).toBe(true);
    expect(save).toHaveBeenCalledTimes(1);
    expect(feedback.message.error).not.toHaveBeenCalled();
  });

  it("stays open (false) on a 400, with the server's messages on the form's own fields and its message in the toast", async () => {
    const form = renderForm();
    const refused = rejection(400, {
      message: '名称不能为空',
      errors: [
        { field: 'name', key: 'validation.required', message: '名称不能为空' },
        { field: 'other', key: 'x', message: '别处的错' },
      ],
    });
    expect(await submit(form, ['name', 'code'], '保存失败', () => Promise.reject(refused))).toBe(false);
    expect(form.getFieldError('name')).toEqual(['名称不能为空']);
    expect(form.getFieldError('code')).toEqual([]);
    expect(await screen.findByText('名称不能为空')).toBeTruthy();
    expect(screen.queryByText('别处的错')).toBeNull();
    expect(feedback.message.error).toHaveBeenCalledWith('名称不能为空', 5);
  });

  it('says the fallback when no answer came', async () => {
    const form = renderForm();
    expect(await submit(form, ['name'], '保存失败', () => Promise.reject(new Error('Network Error')))).toBe(false);
    expect(feedback.message.error).toHaveBeenCalledWith('保存失败', 5);
  });

  it('lets the form answer a failure itself, and reports the ones it leaves', async () => {
    const form = renderForm();
    const refused = rejection(406, {
      message: '该手机号已在其他平台注册',
      errors: [{ field: 'name', key: 'k', message: '该手机号已在其他平台注册' }],
    });
    const recover = jest.fn((e: unknown) => (e === refused ? Promise.resolve(true) : null));
    expect(await submit(form, ['name'], '保存失败', () => Promise.reject(refused), recover)).toBe(true);
    expect(recover).toHaveBeenCalledWith(refused);
    expect(form.getFieldError('name')).toEqual([]);
    expect(feedback.message.error).not.toHaveBeenCalled();
    // A failure it does not take is reported as usual.
    expect(await submit(form, ['name'], '保存失败', () => Promise.reject(new Error('Network Error')), recover)).toBe(false);
    expect(feedback.message.error).toHaveBeenCalledWith('保存失败', 5);
  });
});

describe('an edit or an add', () => {
  const before = { id: 7, name: '调度员', description: null as string | null };

  it('sends an edit only what changed, and says so', async () => {
    const update = jest.fn(async () => {});
    const create = jest.fn(async () => {});
    await saveEditOrAdd(t, before, { name: ' 调度员二 ', description: '' }, update, create);
    expect(update).toHaveBeenCalledWith(7, { name: '调度员二' });
    expect(create).not.toHaveBeenCalled();
    expect(feedback.message.success).toHaveBeenCalledWith('修改成功');
  });

  it('calls nothing for an edit that changed nothing, and still closes with the success message', async () => {
    const update = jest.fn(async () => {});
    await saveEdit(t, before, { name: '调度员', description: '  ' }, update);
    expect(update).not.toHaveBeenCalled();
    expect(feedback.message.success).toHaveBeenCalledWith('修改成功');
  });

  it('adds with blank text as null and leaves the success toast to the request client', async () => {
    const update = jest.fn(async () => {});
    const create = jest.fn(async () => {});
    await saveEditOrAdd(t, null, { name: ' 新角色 ', description: ' ' }, update, create);
    expect(create).toHaveBeenCalledWith({ name: '新角色', description: null });
    expect(update).not.toHaveBeenCalled();
    expect(feedback.message.success).not.toHaveBeenCalled();
  });

  it('lets a refused update reach the caller', async () => {
    const refused = rejection(406, { message: '名称已存在' });
    await expect(saveEdit(t, before, { name: '别名', description: null }, () => Promise.reject(refused))).rejects.toBe(refused);
    expect(feedback.message.success).not.toHaveBeenCalled();
  });
});
