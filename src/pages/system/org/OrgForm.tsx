import { ProFormRadio, ProFormSelect, ProFormSwitch, ProFormText, ProFormTextArea, ProFormTreeSelect } from '@ant-design/pro-components';
import { Form } from 'antd';
import DialogForm from '../../../components/system/DialogForm';
import { saveEditOrAdd, submitModal } from '../../../components/system/formSave';
import { optionsOf, ORG_TYPE_KEYS, STATUS_KEYS } from '../../../components/system/labels';
import { maxLength, phoneRule, required } from '../../../components/system/rules';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { createOrg, updateOrg, type Org, type OrgBody } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import { parentOptions } from './parentOptions';

export type OrgFormTarget = { mode: 'add'; parentId?: number } | { mode: 'edit'; org: Org };

type Values = Required<Pick<OrgBody, 'code' | 'name' | 'parentId' | 'type' | 'status' | 'contact' | 'phone' | 'address' | 'isSystem'>>;
const FIELDS = ['code', 'name', 'parentId', 'type', 'status', 'contact', 'phone', 'address', 'isSystem'] as const;

export interface OrgFormProps {
  target: OrgFormTarget;
  orgOptions: OrgTreeNode[];
  /** Only the platform's administrators set the system flag. */
  platformAdmin: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Add or edit an organisation: SPEC.md §3 fields, §5 messages (name and code required, phone format). */
export default function OrgForm({ target, orgOptions, platformAdmin, onClose, onSaved }: OrgFormProps) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const editing = target.mode === 'edit' ? target.org : null;
  const initialValues: Partial<Values> = editing
    ? Object.fromEntries(FIELDS.map((k) => [k, editing[k]]))
    : { parentId: target.mode === 'add' ? target.parentId : undefined, type: 'client', status: 'enabled', isSystem: false };

  const submit = (values: Values) => {
    const body: OrgBody = platformAdmin ? values : { ...values, isSystem: undefined };
    return submitModal(form, FIELDS, t('console.system.messages.saveFailed'), async () => {
      await saveEditOrAdd<OrgBody>(t, editing, body, updateOrg, createOrg);
      onSaved();
    });
  };

  return (
    <DialogForm<Values>
      title={t(editing ? 'console.system.org.edit' : 'console.system.org.add')}
      form={form}
      width={640}
      grid
      rowProps={{ gutter: 16 }}
      initialValues={initialValues}
      onClose={onClose}
      onFinish={submit}
    >
      <ProFormText colProps={{ span: 12 }} name="name" label={t('org.fields.name')} rules={[required(t, t('org.fields.name')), maxLength(t, t('org.fields.name'), 64)]} />
      <ProFormText
        colProps={{ span: 12 }}
        name="code"
        label={t('org.fields.code')}
        rules={[required(t, t('org.fields.code')), maxLength(t, t('org.fields.code'), 32), { pattern: /^[A-Za-z0-9_-]+$/, message: t('validation.pattern', { field: t('org.fields.code') }) }]}
      />
      <ProFormTreeSelect
        colProps={{ span: 12 }}
        name="parentId"
        label={t('org.fields.parentId')}
        rules={[required(t, t('org.fields.parentId'))]}
        disabled={editing !== null && editing.parentId === null}
        fieldProps={{ treeData: editing ? parentOptions(orgOptions, editing) : orgOptions, treeDefaultExpandAll: true, showSearch: true, treeNodeFilterProp: 'title' }}
      />
      <ProFormSelect colProps={{ span: 12 }} name="type" label={t('org.fields.type')} options={optionsOf(ORG_TYPE_KEYS, t)} />
      <ProFormText colProps={{ span: 12 }} name="contact" label={t('org.fields.contact')} rules={[maxLength(t, t('org.fields.contact'), 64)]} />
      <ProFormText colProps={{ span: 12 }} name="phone" label={t('org.fields.phone')} rules={[phoneRule(t)]} />
      <ProFormTextArea colProps={{ span: 24 }} name="address" label={t('org.fields.address')} rules={[maxLength(t, t('org.fields.address'), 200)]} fieldProps={{ autoSize: { minRows: 1, maxRows: 3 } }} />
      <ProFormRadio.Group colProps={{ span: 12 }} name="status" label={t('org.fields.status')} options={optionsOf(STATUS_KEYS, t)} />
      {platformAdmin && <ProFormSwitch colProps={{ span: 12 }} name="isSystem" label={t('org.fields.isSystem')} />}
    </DialogForm>
  );
}
