import type { FormInstance } from 'antd';
import type { ServerFieldError } from '../../services/http/failureOf';

/**
 * Puts a server 400's per-field messages onto the form's fields (the server already localised
 * them); answers the errors that name no field of this form, for the caller to show elsewhere.
 */
export function applyFieldErrors(form: FormInstance, errors: readonly ServerFieldError[], fields: readonly string[]): ServerFieldError[] {
  const known = new Set(fields);
  const onFields = errors.filter((e) => known.has(e.field));
  const byField = new Map<string, string[]>();
  for (const e of onFields) byField.set(e.field, [...(byField.get(e.field) ?? []), e.message]);
  form.setFields([...byField].map(([name, messages]) => ({ name, errors: messages })));
  return errors.filter((e) => !known.has(e.field));
}
