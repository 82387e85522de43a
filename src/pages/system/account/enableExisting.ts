import type { Translate } from '../../../../schemas/kit/i18n';
import { showCallFailure } from '../../../components/system/submitFailure';
import { failureOf } from '../../../services/http/failureOf';
import { feedback } from '../../../services/http/feedback';
import { registerMember, type RegisterBody } from '../../../services/passport';

/**
 * SPEC.md §5: a registration refused because the mobile belongs to an account of another platform
 * asks whether to enable that account here, and does so if the operator agrees. Any other refusal
 * is the form's to show (null).
 */
export function enableOnThisPlatform({
  error,
  body,
  mode,
  t,
}: {
  error: unknown;
  body: Record<string, unknown>;
  mode: 'create' | 'update';
  t: Translate;
}): Promise<boolean> | null {
  const f = failureOf(error);
  const other = f.errors.find((x) => x.key === 'passport.phoneOnOtherPlatform');
  if (mode !== 'create' || !other) return null;
  return new Promise<boolean>((resolve) => {
    feedback().modal.confirm({
      title: t('console.system.account.enableTitle'),
      content: f.message ?? other.message,
      okText: t('console.system.actions.ok'),
      cancelText: t('console.system.actions.cancel'),
      onOk: async () => {
        try {
          const r = await registerMember({ ...(body as RegisterBody), enableExisting: true });
          if ('message' in r) void feedback().message.success(r.message);
          resolve(true);
        } catch (e) {
          showCallFailure(e, t('console.system.messages.saveFailed'));
          resolve(false);
        }
      },
      onCancel: () => resolve(false),
    });
  });
}
