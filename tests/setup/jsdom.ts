// jsdom does not provide structuredClone, which the console's form validation uses
// (src/components/schema/validation.ts) to normalise and check a copy of a body, not the form's own.
if (typeof globalThis.structuredClone !== 'function') {
  globalThis.structuredClone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
}

// The shell registers antd's feedback functions when it renders (src/shell); components tested
// without the shell get antd's static ones, so a message they show lands in the document.
import { message, Modal, notification } from 'antd';
import { registerFeedback } from '../../src/services/http/feedback';
registerFeedback({ message, notification, modal: Modal });
