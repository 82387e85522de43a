import { App } from 'antd';
import { useEffect } from 'react';
import { registerFeedback } from '../services/http/feedback';

/** Hands antd's context-aware message, notification and modal (theme, language) to non-React code. */
export default function FeedbackBridge() {
  const { message, notification, modal } = App.useApp();
  useEffect(() => registerFeedback({ message, notification, modal }), [message, notification, modal]);
  return null;
}
