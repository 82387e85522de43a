import { ProFormText, ProFormTextArea, ProFormTreeSelect } from '@ant-design/pro-components';
import { Form } from 'antd';
import DialogForm from '../../../components/system/DialogForm';
import { saveEditOrAdd, submitModal } from '../../../components/system/formSave';
import { maxLength, required } from '../../../components/system/rules';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { createRole, updateRole, type Application, type Role, type RoleBody } from '../../../services/passport';
import { useT } from '../../../shell/useT';

type Values = Required<RoleBody>;
const FIELDS = ['name', 'description', 'orgId'] as const;

export interface RoleFormProps {
  application: Application;
  /** The role to edit; null adds one. */
  role: Role | null;
  orgOptions: OrgTreeNode[];
  onClose: () => void;
  onSaved: () => void;
}

/** Add or edit a role of one application: name (required), description, organisation (the caller's when left empty). */
export default function RoleForm({ application, role, orgOptions, onClose, onSaved }: RoleFormProps) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const submit = (values: Values) =>
    submitModal(form, FIELDS, t('console.system.messages.saveFailed'), async () => {
      await saveEditOrAdd<RoleBody>(t, role, values, (id, change) => updateRole(application, id, change), (body) => createRole(application, body));
      onSaved();
    });
  return (
    <DialogForm<Values>
      title={t(role ? 'console.system.role.edit' : 'console.system.role.add')}
      form={form}
      width={520}
      initialValues={role ? { name: role.name, description: role.description, orgId: role.orgId } : {}}
      onClose={onClose}
      onFinish={submit}
    >
      <ProFormText name="name" label={t('passport.roleFields.name')} rules={[required(t, t('passport.roleFields.name')), maxLength(t, t('passport.roleFields.name'), 64)]} />
      <ProFormTextArea name="description" label={t('passport.roleFields.description')} rules={[maxLength(t, t('passport.roleFields.description'), 200)]} fieldProps={{ autoSize: { minRows: 2, maxRows: 4 } }} />
      <ProFormTreeSelect
        name="orgId"
        label={t('passport.roleFields.orgId')}
        placeholder={t('console.system.role.ownOrg')}
        fieldProps={{ treeData: orgOptions, treeDefaultExpandAll: true, showSearch: true, treeNodeFilterProp: 'title' }}
      />
    </DialogForm>
  );
}
