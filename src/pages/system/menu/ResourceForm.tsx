import { ProFormDependency, ProFormDigit, ProFormRadio, ProFormSwitch, ProFormText, ProFormTreeSelect } from '@ant-design/pro-components';
import { Form } from 'antd';
import { useEffect, useState } from 'react';
import DialogForm from '../../../components/system/DialogForm';
import { saveEditOrAdd, submitModal } from '../../../components/system/formSave';
import { KIND_KEYS, optionsOf } from '../../../components/system/labels';
import { maxLength, required } from '../../../components/system/rules';
import { feedback } from '../../../services/http/feedback';
import { allResources, createResource, updateResource, type Application, type ResourceBody, type ResourceItem } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import { menuParents, type ParentNode } from './parentOptions';

export type ResourceFormTarget = { mode: 'add'; parentId: number | null } | { mode: 'edit'; resource: ResourceItem };

type Values = Required<ResourceBody>;
const FIELDS = ['name', 'code', 'sort', 'kind', 'parentId', 'path', 'url', 'icon', 'hidden', 'affix', 'noCache', 'activeMenu'] as const;

export interface ResourceFormProps {
  application: Application;
  target: ResourceFormTarget;
  onClose: () => void;
  onSaved: () => void;
}

/** Add or edit a menu or action of one application (SPEC.md §3 menu resource, §5 messages). */
export default function ResourceForm({ application, target, onClose, onSaved }: ResourceFormProps) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [parents, setParents] = useState<ParentNode[]>([]);
  const [parentsFailed, setParentsFailed] = useState(false);
  const editing = target.mode === 'edit' ? target.resource : null;

  useEffect(() => {
    let live = true;
    allResources(application)
      .then((tree) => live && setParents(menuParents(tree, editing?.id ?? null)))
      .catch(() => {
        if (!live) return;
        setParentsFailed(true);
        void feedback().message.error(t('console.system.menu.parentLoadFailed'), 5);
      });
    return () => {
      live = false;
    };
  }, [application, editing?.id, t]);

  const submit = (values: Values) =>
    submitModal(form, FIELDS, t('console.system.messages.saveFailed'), async () => {
      await saveEditOrAdd<ResourceBody>(t, editing, values, (id, change) => updateResource(application, id, change), (body) => createResource(application, body));
      onSaved();
    });

  const initialValues: Partial<Values> = editing
    ? Object.fromEntries(FIELDS.map((k) => [k, editing[k]]))
    : { parentId: target.mode === 'add' ? target.parentId : null, kind: 'Menu', sort: 0, hidden: false, affix: false, noCache: false };

  return (
    <DialogForm<Values>
      title={t(editing ? 'console.system.menu.edit' : 'console.system.menu.add')}
      form={form}
      width={680}
      grid
      rowProps={{ gutter: 16 }}
      initialValues={initialValues}
      onClose={onClose}
      onFinish={submit}
    >
      <ProFormTreeSelect
        colProps={{ span: 24 }}
        name="parentId"
        label={t('passport.resourceFields.parentId')}
        placeholder={t('console.system.menu.topLevel')}
        validateStatus={parentsFailed ? 'error' : undefined}
        help={parentsFailed ? t('console.system.menu.parentLoadFailed') : undefined}
        fieldProps={{ treeData: parents, treeDefaultExpandAll: false, showSearch: true, treeNodeFilterProp: 'title', allowClear: true }}
      />
      <ProFormText colProps={{ span: 12 }} name="name" label={t('passport.resourceFields.name')} rules={[required(t, t('passport.resourceFields.name')), maxLength(t, t('passport.resourceFields.name'), 64)]} />
      <ProFormText
        colProps={{ span: 12 }}
        name="code"
        label={t('passport.resourceFields.code')}
        rules={[required(t, t('passport.resourceFields.code')), maxLength(t, t('passport.resourceFields.code'), 64), { pattern: /^[A-Za-z0-9_.:-]+$/, message: t('validation.pattern', { field: t('passport.resourceFields.code') }) }]}
      />
      <ProFormRadio.Group colProps={{ span: 12 }} name="kind" label={t('passport.resourceFields.kind')} options={optionsOf(KIND_KEYS, t)} rules={[required(t, t('passport.resourceFields.kind'))]} />
      <ProFormDigit colProps={{ span: 12 }} name="sort" label={t('passport.resourceFields.sort')} min={0} max={100000} fieldProps={{ precision: 0 }} rules={[required(t, t('passport.resourceFields.sort'))]} />
      <ProFormDependency name={['kind']}>
        {({ kind }) =>
          kind === 'Menu' && (
            <>
              <ProFormText
                colProps={{ span: 12 }}
                name="path"
                label={t('passport.resourceFields.path')}
                placeholder="/system/example"
                rules={[maxLength(t, t('passport.resourceFields.path'), 200), { pattern: /^\//, message: t('validation.pattern', { field: t('passport.resourceFields.path') }) }]}
              />
              <ProFormText colProps={{ span: 12 }} name="url" label={t('passport.resourceFields.url')} placeholder="system/example" rules={[maxLength(t, t('passport.resourceFields.url'), 200)]} />
              <ProFormText colProps={{ span: 12 }} name="icon" label={t('passport.resourceFields.icon')} placeholder="SettingOutlined" rules={[maxLength(t, t('passport.resourceFields.icon'), 64)]} />
              <ProFormText colProps={{ span: 12 }} name="activeMenu" label={t('passport.resourceFields.activeMenu')} rules={[maxLength(t, t('passport.resourceFields.activeMenu'), 200)]} />
              <ProFormSwitch colProps={{ span: 8 }} name="hidden" label={t('passport.resourceFields.hidden')} />
              <ProFormSwitch colProps={{ span: 8 }} name="affix" label={t('passport.resourceFields.affix')} />
              <ProFormSwitch colProps={{ span: 8 }} name="noCache" label={t('passport.resourceFields.noCache')} />
            </>
          )
        }
      </ProFormDependency>
    </DialogForm>
  );
}
