import { translator } from '../../../../../schemas/kit/catalogue';
import { actionLabel } from '../../../../../src/pages/system/log/actions';

describe('audited action names', () => {
  it('translates known actions, marks console events and shows unknown ones as they are', () => {
    const zh = translator('zh-CN');
    expect(actionLabel('roleAuthorize', zh)).toBe('角色授权');
    expect(actionLabel('client:export', zh)).toBe('控制台事件：export');
    expect(actionLabel('somethingNew', zh)).toBe('somethingNew');
    expect(actionLabel('simulateLogin', translator('ja-JP'))).toBe('代理ログイン');
  });
});
