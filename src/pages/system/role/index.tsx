import DialogAction from '../../../components/schema/DialogAction';
import { EntityPage } from '../../../components/schema/EntityPage';
import type { Row } from '../../../components/schema/pageContract';
import ApplicationTabs from '../../../components/system/ApplicationTabs';
import { APPLICATION_CALLS } from '../../../components/system/perApplication';
import { codeFor, type Application, type Role } from '../../../services/passport';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import AuthorizeDialog from './AuthorizeDialog';

function Authorize({ application, row }: { application: Application; row: Row }) {
  const t = useT();
  return (
    <Permission code={codeFor('role-authorize', application)}>
      <DialogAction
        label={t('console.system.role.authorize')}
        dialog={(close) => <AuthorizeDialog application={application} role={row as unknown as Role} onClose={close} />}
      />
    </Permission>
  );
}

const LABELS = { add: 'console.system.role.add', createTitle: 'console.system.role.add', editTitle: 'console.system.role.edit' };

/** Roles (SPEC.md §6): the role schema page once per application (web roles, App roles), with the authorise dialog. */
export default function RolePage() {
  return (
    <ApplicationTabs
      testId="role-page"
      page={(application) => (
        <EntityPage
          entity="role"
          testId={`role-page-${application}`}
          calls={APPLICATION_CALLS[application]}
          labels={LABELS}
          leadingRowActions={(row) => [<Authorize key="authorize" application={application} row={row} />]}
          actionsWidth={200}
          form={FORM}
        />
      )}
    />
  );
}
const FORM = { modal: true, changesOnly: true };
