import { ProForm } from '@ant-design/pro-components';
import { Input } from 'antd';
import PasswordInput from '../../../components/password/PasswordInput';
import DialogAction from '../../../components/schema/DialogAction';
import { EntityPage } from '../../../components/schema/EntityPage';
import type { EntityPageExtensions, FormSection, Row } from '../../../components/schema/pageContract';
import { confirmRule } from '../../../components/system/rules';
import type { Member } from '../../../services/passport';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import { enableOnThisPlatform } from './enableExisting';
import { memberCells, MemberApplications, MemberRoles, MemberTypes } from './memberFields';
import ResetPasswordForm from './ResetPasswordForm';
import { MisassignedRolesAlert, UnlockLink } from './SecurityNotices';
import { SimulateLink } from './SimulateLink';

/** The confirmation of a new account's password: checked in the dialog, never sent. */
function ConfirmPassword({ row }: { row?: Row }) {
  const t = useT();
  if (row) return null;
  return (
    <ProForm.Item
      name="confirmPassword"
      label={t('passport.fields.confirmPassword')}
      dependencies={['password']}
      rules={[{ required: true, message: t('validation.confirmPassword.required') }, confirmRule(t, 'password')]}
    >
      <Input.Password autoComplete="new-password" />
    </ProForm.Item>
  );
}
const confirmSection: FormSection = { fields: ['confirmPassword'], local: true, render: ({ row }) => <ConfirmPassword row={row} /> };

function ResetPassword({ row }: { row: Row }) {
  const t = useT();
  return (
    <Permission code="member-resetpassword">
      <DialogAction
        label={t('console.system.account.resetPassword')}
        dialog={(close) => <ResetPasswordForm member={row as unknown as Member} onClose={close} />}
      />
    </Permission>
  );
}

/** The account page's extensions of the member schema page (exported for the dialog's tests). */
export const accountExtensions: EntityPageExtensions = {
  testId: 'account-page',
  header: <MisassignedRolesAlert />,
  labels: {
    header: 'menu.system-account',
    add: 'console.system.account.register',
    createTitle: 'console.system.account.register',
    editTitle: 'console.system.account.edit',
  },
  cells: memberCells,
  rowActions: (row) => [
    <ResetPassword key="reset" row={row} />,
    <SimulateLink key="simulate" member={row as unknown as Member} />,
    <UnlockLink key="unlock" member={row as unknown as Member} />,
  ],
  actionsWidth: 260,
  formSection: confirmSection,
  form: {
    modal: true,
    changesOnly: true,
    // No expiry is an account that never expires, as the seeded ones; the help says so.
    help: { expireDate: 'console.system.account.expireDateHelp' },
    useHidden: (mode) => (mode === 'create' ? ['status'] : []),
    inputs: {
      memberType: (p) => <MemberTypes {...p} />,
      roleIds: (p) => <MemberRoles {...p} />,
      applications: (p) => <MemberApplications {...p} />,
      password: () => <PasswordInput />,
    },
    recover: enableOnThisPlatform,
  },
};

/** Accounts (SPEC.md §3, §5, §7): register, edit, reset password, simulate login, unlock; role assignments breaking the organisation rule. */
export default function AccountPage() {
  return <EntityPage entity="member" {...accountExtensions} />;
}
