import { ProFormDatePicker, ProFormRadio, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { Form } from 'antd';
import { useEffect } from 'react';
import DialogForm from '../../../components/system/DialogForm';
import { saveEdit, submitModal } from '../../../components/system/formSave';
import { optionsOf, STATUS_KEYS } from '../../../components/system/labels';
import { maxLength, phoneRule, required } from '../../../components/system/rules';
import { useRoleOptions } from '../../../components/system/useRoleOptions';
import { updateAppMember, type AppMemberBody, type Member } from '../../../services/passport';
import { useT } from '../../../shell/useT';

type Values = Required<AppMemberBody>;
const FIELDS = ['name', 'mobile', 'expireDate', 'status', 'roleIds'] as const;
const APP_ONLY = ['vehicle-app'] as const;

/** Edit an App account: name, mobile, expiry, status and its App roles (its web roles are left alone). */
export default function AppMemberForm({ member, onClose, onSaved }: { member: Member; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const roleOptions = useRoleOptions(APP_ONLY);
  const appRoleIds = new Set(roleOptions.flatMap((g) => g.options.map((o) => o.value)));
  const before = { ...member, roleIds: member.roleIds.filter((id) => appRoleIds.has(id)) };
  // Which of the member's roles are App roles is known once the App roles are loaded.
  const appRolesKey = before.roleIds.join(',');
  useEffect(() => {
    if (!form.isFieldTouched('roleIds')) form.setFieldsValue({ roleIds: appRolesKey ? appRolesKey.split(',').map(Number) : [] });
  }, [appRolesKey, form]);

  const submit = (values: Values) =>
    submitModal(form, FIELDS, t('console.system.messages.saveFailed'), async () => {
      await saveEdit<AppMemberBody>(t, before, values, updateAppMember);
      onSaved();
    });

  return (
    <DialogForm<Values>
      title={t('console.system.appAccount.edit')}
      form={form}
      width={520}
      initialValues={Object.fromEntries(FIELDS.map((k) => [k, before[k]]))}
      onClose={onClose}
      onFinish={submit}
    >
      <ProFormText name="name" label={t('passport.fields.name')} rules={[required(t, t('passport.fields.name')), maxLength(t, t('passport.fields.name'), 64)]} />
      <ProFormText name="mobile" label={t('passport.fields.mobile')} rules={[phoneRule(t)]} />
      <ProFormDatePicker name="expireDate" label={t('passport.fields.expireDate')} fieldProps={{ format: 'YYYY-MM-DD', style: { width: '100%' } }} />
      <ProFormRadio.Group name="status" label={t('passport.fields.status')} options={optionsOf(STATUS_KEYS, t)} />
      <ProFormSelect name="roleIds" label={t('console.system.appAccount.roles')} options={roleOptions} fieldProps={{ mode: 'multiple', optionFilterProp: 'label' }} />
    </DialogForm>
  );
}
