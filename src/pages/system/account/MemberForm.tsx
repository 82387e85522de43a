import { ProFormCheckbox, ProFormDatePicker, ProFormRadio, ProFormSelect, ProFormText, ProFormTreeSelect } from '@ant-design/pro-components';
import { Form } from 'antd';
import { blankToNull } from '../../../components/system/changes';
import DialogForm from '../../../components/system/DialogForm';
import { saveEdit, submitModal } from '../../../components/system/formSave';
import { MEMBER_TYPE_KEYS, optionsOf, STATUS_KEYS } from '../../../components/system/labels';
import { accountPasswordRule, confirmRule, maxLength, phoneRule, required } from '../../../components/system/rules';
import { showSubmitFailure } from '../../../components/system/submitFailure';
import { useApplications } from '../../../components/system/useApplications';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { useRoleOptions } from '../../../components/system/useRoleOptions';
import { failureOf } from '../../../services/http/failureOf';
import { feedback } from '../../../services/http/feedback';
import { APPLICATIONS, registerMember, updateMember, type Member, type MemberBody, type RegisterBody } from '../../../services/passport';
import { loadSession } from '../../../services/session';
import { useT } from '../../../shell/useT';

type Values = Required<MemberBody> & { password: string; confirmPassword: string };
const FIELDS = ['loginName', 'name', 'mobile', 'memberType', 'orgId', 'expireDate', 'status', 'roleIds', 'applications', 'password'] as const;

export interface MemberFormProps {
  /** The account to edit; null registers one. */
  member: Member | null;
  orgOptions: OrgTreeNode[];
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Register or edit an account (SPEC.md §3, §5): login name, name, mobile with the phone rules,
 * member type, organisation, expiry, password on registration, roles and applications. The expiry
 * is required when registering (as the server has it); an existing account may have none. A mobile
 * registered on another platform asks whether to enable that account here.
 */
export default function MemberForm({ member, orgOptions, onClose, onSaved }: MemberFormProps) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const applications = useApplications();
  const roleOptions = useRoleOptions(APPLICATIONS);
  // Only administrators make administrators; an administrator's own type stays shown when edited.
  const types = optionsOf(MEMBER_TYPE_KEYS, t).filter((o) => o.value !== 'administrator' || loadSession()?.memberType === 'administrator' || member?.memberType === 'administrator');
  const fail = (e: unknown) => showSubmitFailure(form, e, FIELDS, t('console.system.messages.saveFailed'));

  /** SPEC.md §5: "registered on another platform" — enable that account here if the operator agrees. */
  const offerEnable = (body: RegisterBody, message: string) =>
    new Promise<boolean>((resolve) => {
      feedback().modal.confirm({
        title: t('console.system.account.enableTitle'),
        content: message,
        okText: t('console.system.actions.ok'),
        cancelText: t('console.system.actions.cancel'),
        onOk: async () => {
          try {
            const r = await registerMember({ ...body, enableExisting: true });
            if ('message' in r) void feedback().message.success(r.message);
            onSaved();
            resolve(true);
          } catch (e) {
            fail(e);
            resolve(false);
          }
        },
        onCancel: () => resolve(false),
      });
    });

  /** A registration refused for a phone of another platform asks the operator instead of failing. */
  const otherPlatform = (values: Omit<Values, 'confirmPassword'>, e: unknown) => {
    const f = failureOf(e);
    const other = f.errors.find((x) => x.key === 'passport.phoneOnOtherPlatform');
    return !member && other ? offerEnable(blankToNull(values) as RegisterBody, f.message ?? other.message) : null;
  };

  const submit = ({ confirmPassword: _confirm, ...values }: Values) =>
    submitModal(
      form,
      FIELDS,
      t('console.system.messages.saveFailed'),
      async () => {
        if (member) {
          const { password: _password, ...rest } = values;
          await saveEdit<MemberBody>(t, member, rest, updateMember);
        } else {
          await registerMember(blankToNull(values) as RegisterBody);
        }
        onSaved();
      },
      (e) => otherPlatform(values, e),
    );

  const initialValues: Partial<Values> = member
    ? Object.fromEntries(FIELDS.filter((k) => k !== 'password').map((k) => [k, member[k]]))
    : { memberType: 'orgUser', status: 'enabled', applications: ['obd-web'], roleIds: [] };

  return (
    <DialogForm<Values>
      title={t(member ? 'console.system.account.edit' : 'console.system.account.register')}
      form={form}
      width={720}
      grid
      rowProps={{ gutter: 16 }}
      initialValues={initialValues}
      onClose={onClose}
      onFinish={submit}
    >
      <ProFormText
        colProps={{ span: 12 }}
        name="loginName"
        label={t('passport.fields.loginName')}
        rules={[required(t, t('passport.fields.loginName')), maxLength(t, t('passport.fields.loginName'), 64), { pattern: /^[^\s/]+$/, message: t('validation.pattern', { field: t('passport.fields.loginName') }) }]}
        fieldProps={{ autoComplete: 'off' }}
      />
      <ProFormText colProps={{ span: 12 }} name="name" label={t('passport.fields.name')} rules={[required(t, t('passport.fields.name')), maxLength(t, t('passport.fields.name'), 64)]} />
      <ProFormText colProps={{ span: 12 }} name="mobile" label={t('passport.fields.mobile')} rules={[phoneRule(t)]} />
      <ProFormSelect colProps={{ span: 12 }} name="memberType" label={t('passport.fields.memberType')} options={types} rules={[required(t, t('passport.fields.memberType'))]} />
      <ProFormTreeSelect
        colProps={{ span: 12 }}
        name="orgId"
        label={t('passport.fields.orgId')}
        placeholder={t('console.system.role.ownOrg')}
        fieldProps={{ treeData: orgOptions, treeDefaultExpandAll: true, showSearch: true, treeNodeFilterProp: 'title' }}
      />
      <ProFormDatePicker colProps={{ span: 12 }} name="expireDate" label={t('passport.fields.expireDate')} rules={member ? [] : [required(t, t('passport.fields.expireDate'))]} fieldProps={{ format: 'YYYY-MM-DD', style: { width: '100%' } }} />
      {!member && (
        <>
          <ProFormText.Password colProps={{ span: 12 }} name="password" label={t('passport.fields.password')} rules={[required(t, t('passport.fields.password')), accountPasswordRule(t)]} fieldProps={{ autoComplete: 'new-password' }} />
          <ProFormText.Password
            colProps={{ span: 12 }}
            name="confirmPassword"
            label={t('passport.fields.confirmPassword')}
            dependencies={['password']}
            rules={[{ required: true, message: t('validation.confirmPassword.required') }, confirmRule(t, 'password')]}
            fieldProps={{ autoComplete: 'new-password' }}
          />
        </>
      )}
      {member && <ProFormRadio.Group colProps={{ span: 12 }} name="status" label={t('passport.fields.status')} options={optionsOf(STATUS_KEYS, t)} />}
      <ProFormSelect colProps={{ span: 24 }} name="roleIds" label={t('passport.fields.roleIds')} options={roleOptions} fieldProps={{ mode: 'multiple', optionFilterProp: 'label' }} />
      <ProFormCheckbox.Group colProps={{ span: 24 }} name="applications" label={t('passport.fields.applications')} options={applications} />
    </DialogForm>
  );
}
