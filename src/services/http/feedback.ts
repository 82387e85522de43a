import { message as staticMessage, Modal, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { ModalFuncProps } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { FailureFeedback } from './failure';

/** antd's feedback functions; the shell registers the context-aware ones of `App.useApp()`. */
export interface FeedbackApi {
  message: Pick<MessageInstance, 'success' | 'error' | 'warning'>;
  notification: Pick<NotificationInstance, 'warning'>;
  modal: { confirm(props: ModalFuncProps): unknown };
}

let api: FeedbackApi = { message: staticMessage, notification: staticNotification, modal: Modal };

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
