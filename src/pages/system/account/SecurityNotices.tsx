import { Alert, Popconfirm } from 'antd';
import { useEffect, useState } from 'react';
import { feedback } from '../../../services/http/feedback';
import { roleMisassignments, unlockMember, type Member, type RoleMisassignment } from '../../../services/passport';
import Permission from '../../../session/Permission';
import { usePermission } from '../../../session/navigationStore';
import { useT } from '../../../session/useT';

/** "Unlock" on an account's row (`member-unlock`): lifts the sign-in lock wrong passwords set. */
export function UnlockLink({ member }: { member: Member }) {
  const t = useT();
  return (
    <Permission code="member-unlock">
      <Popconfirm
        title={t('security.unlockConfirm', { name: member.name })}
        onConfirm={() =>
          unlockMember(member.id)
            .then((r) => void feedback().message.success(r.message))
            .catch(() => {
              // Shown by the request client.
            })
        }
      >
        <a data-testid="unlock-member">{t('security.unlock')}</a>
      </Popconfirm>
    </Permission>
  );
}

/** For holders of `member-roleAudit`: accounts holding a role of an organisation outside their own line (made before the rule). */
export function MisassignedRolesAlert() {
  const t = useT();
  const allowed = usePermission('member-roleAudit');
  const [rows, setRows] = useState<RoleMisassignment[]>([]);
  useEffect(() => {
    if (!allowed) return;
    let live = true;
    roleMisassignments()
      .then((r) => live && setRows(r.data))
      .catch(() => {
        // Only a notice: the accounts page works without it.
      });
    return () => {
      live = false;
    };
  }, [allowed]);
  if (!rows.length) return null;
  return (
    <Alert
      data-testid="role-misassignments"
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t('security.misassignedTitle', { count: rows.length })}
      description={
        <>
          <div>{t('security.misassignedHint')}</div>
          <ul style={{ margin: '8px 0 0', paddingLeft: 20 }}>
            {rows.map((r) => (
              <li key={`${r.memberId}-${r.roleId}`}>
                {t('security.misassignedRow', {
                  loginName: r.loginName,
                  orgName: r.orgName,
                  roleName: r.roleName,
                  roleOrgName: r.roleOrgName,
                })}
              </li>
            ))}
          </ul>
        </>
      }
    />
  );
}
