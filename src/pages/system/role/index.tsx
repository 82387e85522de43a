import { Tabs } from 'antd';
import { APPLICATION_KEYS } from '../../../components/system/labels';
import { useOrgOptions } from '../../../components/system/useOrgOptions';
import { APPLICATIONS } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import RoleTable from './RoleTable';

/** Roles (SPEC.md §6): web roles and App roles, each with its own codes, and the authorise dialog. */
export default function RolePage() {
  const t = useT();
  const orgOptions = useOrgOptions();
  return (
    <div data-testid="role-page">
      <Tabs
        items={APPLICATIONS.map((application) => ({
          key: application,
          label: t(APPLICATION_KEYS[application]),
          children: <RoleTable application={application} orgOptions={orgOptions} />,
        }))}
      />
    </div>
  );
}
