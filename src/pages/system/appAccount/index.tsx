import { useState } from 'react';
import { ActionLink } from '../../../components/system/tableActions';
import { useOrgOptions } from '../../../components/system/useOrgOptions';
import type { Member } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import MemberTable from '../account/MemberTable';
import AppMemberForm from './AppMemberForm';

const APP_MEMBERS = { application: 'vehicle-app' };

/** App accounts: the accounts of the vehicle-app application, edited under appMember-edit. */
export default function AppAccountPage() {
  const t = useT();
  const orgOptions = useOrgOptions();
  const [editing, setEditing] = useState<{ member: Member; reload: () => void } | null>(null);
  return (
    <div data-testid="app-account-page">
      <MemberTable
        fixed={APP_MEMBERS}
        orgOptions={orgOptions}
        rowActions={(m, reload) => [
          <ActionLink key="edit" code="appMember-edit" onClick={() => setEditing({ member: m, reload })}>
            {t('console.system.actions.edit')}
          </ActionLink>,
        ]}
      />
      {editing && <AppMemberForm member={editing.member} onClose={() => setEditing(null)} onSaved={editing.reload} />}
    </div>
  );
}
