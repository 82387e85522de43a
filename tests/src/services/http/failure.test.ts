import { translator } from '../../../../schemas/kit/catalogue';
import { describeFailure, serverMessage, successText } from '../../../../src/services/http/failure';

const zh = translator('zh-CN');
const en = translator('en-US');

describe('error catalogue (SPEC.md §8)', () => {
  it('asks to log in again on 401, word for word', () => {
    expect(describeFailure({ status: 401, data: { message: 'x' } }, zh)).toEqual({
      kind: 'logoutConfirm',
      title: '确定登出',
      content: '你已被登出，可以取消继续留在该页面，或者重新登录',
      okText: '重新登录',
      cancelText: '取消',
    });
  });

  it("says '没有权限！' for 5 s on 403, whatever the server said", () => {
    expect(describeFailure({ status: 403, data: { message: 'Forbidden route' } }, zh)).toEqual({
      kind: 'message',
      level: 'error',
      text: '没有权限！',
      seconds: 5,
    });
  });

  it.each([
    [400, '参数错误！'],
    [406, '业务逻辑错误！'],
  ])('%i: server message, else error.message, else raw text, else %s — 5 s', (status, fallback) => {
    const text = (data: unknown) => {
      const fb = describeFailure({ status, data }, zh);
      expect(fb).toMatchObject({ kind: 'message', level: 'error', seconds: 5 });
      return (fb as { text: string }).text;
    };
    expect(text({ message: '手机号已存在', error: { message: 'inner' } })).toBe('手机号已存在');
    expect(text({ error: { message: 'inner' } })).toBe('inner');
    expect(text('plain body')).toBe('plain body');
    expect(text({ message: '' })).toBe(fallback);
    expect(text(undefined)).toBe(fallback);
  });

  it('shows a 3 s warning notification on 500', () => {
    expect(describeFailure({ status: 500, data: { message: 'db down' } }, zh)).toEqual({
      kind: 'notification',
      level: 'warning',
      text: 'db down',
      seconds: 3,
    });
    expect(describeFailure({ status: 500 }, zh)).toEqual({ kind: 'notification', level: 'warning', text: '服务器错误！', seconds: 3 });
  });

  it('shows nothing for other statuses and missing responses', () => {
    expect(describeFailure({ status: 404, data: { message: 'x' } }, zh)).toEqual({ kind: 'none' });
    expect(describeFailure({}, zh)).toEqual({ kind: 'none' });
  });

  it('speaks the chosen language', () => {
    expect(describeFailure({ status: 403 }, en)).toMatchObject({ text: en('http.forbidden') });
    expect(en('http.forbidden')).not.toBe('没有权限！');
  });

  it('announces 201 and 204 only', () => {
    expect(successText(201, zh)).toBe('添加成功！');
    expect(successText(204, zh)).toBe('删除成功！');
    expect(successText(200, zh)).toBeUndefined();
  });

  it('reads no message out of non-string fields', () => {
    expect(serverMessage({ message: 42 })).toBeUndefined();
    expect(serverMessage('   ')).toBeUndefined();
  });
});
