import type { ModalFuncProps } from 'antd';
import { registerFeedback, showFailure } from '../../../../src/services/http/feedback';

function recorder() {
  const log: string[] = [];
  const confirms: ModalFuncProps[] = [];
  registerFeedback({
    message: {
      success: ((t: string) => log.push(`success:${t}`)) as never,
      error: ((t: string, s: number) => log.push(`error:${t}:${s}`)) as never,
      warning: ((t: string) => log.push(`warning:${t}`)) as never,
    },
    notification: {
      warning: (({ message, duration }: { message: string; duration: number }) => log.push(`notify:${message}:${duration}`)) as never,
    },
    modal: { confirm: (p: ModalFuncProps) => confirms.push(p) },
  });
  return { log, confirms };
}

describe('showing a failure', () => {
  it('toasts and notifies with the given durations', () => {
    const { log } = recorder();
    showFailure({ kind: 'message', level: 'error', text: '没有权限！', seconds: 5 }, () => undefined);
    showFailure({ kind: 'notification', level: 'warning', text: '服务器错误！', seconds: 3 }, () => undefined);
    showFailure({ kind: 'none' }, () => undefined);
    expect(log).toEqual(['error:没有权限！:5', 'notify:服务器错误！:3']);
  });

  it('asks once while the 401 question is open, and relogs in on OK', () => {
    const { confirms } = recorder();
    let relogins = 0;
    const fb = { kind: 'logoutConfirm', title: '确定登出', content: 'c', okText: '重新登录', cancelText: '取消' } as const;
    showFailure(fb, () => relogins++);
    showFailure(fb, () => relogins++);
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatchObject({ title: '确定登出', okText: '重新登录', cancelText: '取消' });
    (confirms[0].onOk as () => void)();
    expect(relogins).toBe(1);
    (confirms[0].afterClose as () => void)();
    showFailure(fb, () => relogins++);
    expect(confirms).toHaveLength(2);
  });
});
