import type { FormInstance } from 'antd';
import { applyFieldErrors } from '../form/fieldErrors';
import { reportFailure } from '../../services/http/config';
import { feedback } from '../../services/http/feedback';
import { failureOf, type CallFailure } from '../../services/http/failureOf';

/**
 * A form's call failed: the server's per-field messages go on the form's fields, and the toast of
 * SPEC.md §8 says the rest (400/406 server message, 403 '没有权限！', 401 the logout question);
 * without an answer, the form's own `fallback` message.
 */
export function showSubmitFailure(form: FormInstance, error: unknown, fields: readonly string[], fallback: string): CallFailure {
  const failure = failureOf(error);
  applyFieldErrors(form, failure.errors, fields);
  showCallFailure(error, fallback);
  return failure;
}

/**
 * A call the page reports itself failed: what SPEC.md §8 says for the statuses it covers, else the
 * page's own message (e.g. '角色权限修改失败' when no answer came).
 */
export function showCallFailure(error: unknown, fallback: string): void {
  const { status } = failureOf(error);
  if (status === 400 || status === 401 || status === 403 || status === 406 || status === 500) reportFailure(error);
  else void feedback().message.error(fallback, 5);
}
