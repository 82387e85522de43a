import type { FormInstance } from 'antd';
import type { Translate } from '../../../schemas/kit/i18n';
import { feedback } from '../../services/http/feedback';
import { blankToNull, changedFields } from './changes';
import { showSubmitFailure } from './submitFailure';

/**
 * A modal form's `onFinish`: runs `save` and answers true, which closes the modal. When it fails the
 * server's field messages go on the form's `fields` and the SPEC.md §8 toast (else `fallback`) is
 * shown, and the modal stays open (false) — unless `recover` takes that failure on itself and
 * answers instead (e.g. the §5 question whether to enable an account of another platform).
 */
export async function submitModal(
  form: FormInstance,
  fields: readonly string[],
  fallback: string,
  save: () => Promise<void>,
  recover?: (error: unknown) => Promise<boolean> | null,
): Promise<boolean> {
  try {
    await save();
    return true;
  } catch (e) {
    const answer = recover?.(e);
    if (answer) return answer;
    showSubmitFailure(form, e, fields, fallback);
    return false;
  }
}

type Body = Record<string, unknown>;

/** An edit: only what changed goes to `update` (nothing at all when nothing did), then '修改成功'. */
export async function saveEdit<B extends Body>(
  t: Translate,
  before: Partial<Record<keyof B, unknown>> & { id: number },
  values: B,
  update: (id: number, change: Partial<B>) => Promise<unknown>,
): Promise<void> {
  const change = changedFields<B>(before, values);
  if (Object.keys(change).length) await update(before.id, change);
  void feedback().message.success(t('passport.updated'));
}

/** An edit of `before` (as saveEdit), or with none a new record, blank text sent as null (the request client toasts its 201). */
export async function saveEditOrAdd<B extends Body>(
  t: Translate,
  before: (Partial<Record<keyof B, unknown>> & { id: number }) | null,
  values: B,
  update: (id: number, change: Partial<B>) => Promise<unknown>,
  create: (body: B) => Promise<unknown>,
): Promise<void> {
  if (before) await saveEdit(t, before, values, update);
  else await create(blankToNull(values));
}
