import { Popconfirm } from 'antd';
import type { Member } from '../../../services/passport';
import { impersonate } from '../../../session/logout';
import Permission from '../../../session/Permission';
import { isImpersonating, loadSession } from '../../../session/session';
import { useT } from '../../../session/useT';

/**
 * "Simulate login" for one account (SPEC.md §4), under `member-simulate`; not offered on one's
 * own row nor while already simulating (the server refuses both).
 */
export function SimulateLink({ member }: { member: Member }) {
  const t = useT();
  const session = loadSession();
  if (!session || session.memberId === member.id || isImpersonating()) return null;
  return (
    <Permission code="member-simulate">
      <Popconfirm
        title={t('console.system.account.simulateConfirm', { name: member.name })}
        onConfirm={() =>
          impersonate(member.id).catch(() => {
            // Shown by the request client (e.g. 406: a disabled or expired account).
          })
        }
      >
        <a data-testid="simulate-login">{t('console.system.account.simulate')}</a>
      </Popconfirm>
    </Permission>
  );
}
