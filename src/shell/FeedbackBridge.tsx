import { App } from 'antd';
import { useEffect } from 'react';
import { registerFeedback } from '../services/http/feedback';
import { takeNotice } from '../session/session';

/**
 * Hands antd's context-aware message, notification and modal (theme, language) to non-React code,
 * and shows the message a page saved before it reloaded (saveNotice).
 */
export default function FeedbackBridge() {
  const { message, notification, modal } = App.useApp();
  useEffect(() => registerFeedback({ message, notification, modal }), [message, notification, modal]);
  useEffect(() => {
    const notice = takeNotice();
    if (notice) void message.success(notice);
  }, [message]);
  return null;
}
