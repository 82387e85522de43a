import type { ModalFuncProps } from 'antd';
import type { FailureFeedback } from './failure';

type Say = (content: string, seconds?: number) => unknown;

/** antd's feedback functions; the shell registers the context-aware ones of `App.useApp()`. */
export interface FeedbackApi {
  message: Record<'success' | 'error' | 'warning', Say>;
  notification: { warning(config: { message: string; duration?: number }): unknown };
  modal: { confirm(props: ModalFuncProps): unknown };
}

/**
 * Until the shell registers its own (only a call before the first render could come this early):
 * antd's static functions, loaded when first needed, so the entry script carries no antd.
 */
const later = (use: (antd: typeof import('antd')) => unknown): void => void import('antd').then(use);
let api: FeedbackApi = {
  message: {
    success: (content, seconds) => later((a) => a.message.success(content, seconds)),
    error: (content, seconds) => later((a) => a.message.error(content, seconds)),
    warning: (content, seconds) => later((a) => a.message.warning(content, seconds)),
  },
  notification: { warning: (config) => later((a) => a.notification.warning(config)) },
  modal: { confirm: (props) => later((a) => a.Modal.confirm(props)) },
};

export function registerFeedback(next: FeedbackApi): void {
  api = next;
}

export const feedback = (): FeedbackApi => api;

// One logout question at a time, however many calls failed with 401 together.
let confirming = false;

export function showFailure(fb: FailureFeedback, onRelogin: () => void): void {
  if (fb.kind === 'message') void api.message.error(fb.text, fb.seconds);
  else if (fb.kind === 'notification') api.notification.warning({ message: fb.text, duration: fb.seconds });
  else if (fb.kind === 'logoutConfirm' && !confirming) {
    confirming = true;
    api.modal.confirm({
      title: fb.title,
      content: fb.content,
      okText: fb.okText,
      cancelText: fb.cancelText,
      onOk: onRelogin,
      afterClose: () => {
        confirming = false;
      },
    });
  }
}
