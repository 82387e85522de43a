import { useState } from 'react';
import { ActionLink } from '../../../components/system/tableActions';
import { useOrgOptions } from '../../../components/system/useOrgOptions';
import type { Member } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import MemberForm from './MemberForm';
import MemberTable, { RegisterButton, SimulateLink } from './MemberTable';
import ResetPasswordForm from './ResetPasswordForm';

/** Accounts (SPEC.md §3, §5, §7): register, edit, reset password and simulate login. */
export default function AccountPage() {
  const t = useT();
  const orgOptions = useOrgOptions();
  const [editing, setEditing] = useState<{ member: Member | null; reload: () => void } | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);
  return (
    <div data-testid="account-page">
      <MemberTable
        orgOptions={orgOptions}
        showApplications
        toolbar={(reload) => [<RegisterButton key="register" onClick={() => setEditing({ member: null, reload })} />]}
        rowActions={(m, reload) => [
          <ActionLink key="edit" code="member-edit" onClick={() => setEditing({ member: m, reload })}>
            {t('console.system.actions.edit')}
          </ActionLink>,
          <ActionLink key="reset" code="member-resetpassword" onClick={() => setResetting(m)}>
            {t('console.system.account.resetPassword')}
          </ActionLink>,
          <SimulateLink key="simulate" member={m} />,
        ]}
      />
      {editing && <MemberForm member={editing.member} orgOptions={orgOptions} onClose={() => setEditing(null)} onSaved={editing.reload} />}
      {resetting && <ResetPasswordForm member={resetting} onClose={() => setResetting(null)} />}
    </div>
  );
}
