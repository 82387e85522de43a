import { entityPage } from '../../../components/schema/EntityPage';
import { AppMemberRoles, memberCells } from '../account/memberFields';

/** App accounts: the accounts of the vehicle-app application (a fixed criterion), edited under appMember-edit: name, mobile, expiry, status and App roles. */
export default entityPage('appMember', {
  testId: 'app-account-page',
  criteria: { application: 'vehicle-app' },
  labels: { header: 'menu.system-appAccount', editTitle: 'console.system.appAccount.edit' },
  cells: memberCells,
  form: { modal: true, changesOnly: true, inputs: { roleIds: (p) => <AppMemberRoles {...p} /> } },
});
