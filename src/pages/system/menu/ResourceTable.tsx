import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Space, Tag } from 'antd';
import { useMemo, useRef, useState, type Key } from 'react';
import { KIND_KEYS, labelOf } from '../../../components/system/labels';
import { parentKeys, pruneEmpty } from '../../../components/system/tree';
import { allResources, codeFor, deleteResource, type Application, type ResourceItem } from '../../../services/passport';
import Permission from '../../../shell/Permission';
import { useT } from '../../../shell/useT';
import ResourceForm, { type ResourceFormTarget } from './ResourceForm';

/** The resource tree of one application: menus and their actions, guarded by that application's codes. */
export default function ResourceTable({ application }: { application: Application }) {
  const t = useT();
  const action = useRef<ActionType>();
  const [editing, setEditing] = useState<ResourceFormTarget | null>(null);
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const [allParents, setAllParents] = useState<number[]>([]);
  const code = (c: string) => codeFor(c, application);
  const yesNo = (v: boolean) => (v ? t('common.yes') : t('common.no'));

  const request = useMemo(
    () => async () => {
      try {
        const tree = pruneEmpty(await allResources(application));
        setAllParents(parentKeys(tree));
        return { data: tree, success: true };
      } catch {
        // Shown by the request client.
        return { data: [], success: false };
      }
    },
    [application],
  );

  const remove = async (r: ResourceItem) => {
    try {
      await deleteResource(application, r.id);
      void action.current?.reload();
    } catch {
      // Shown by the request client (406: it still has children).
    }
  };

  const columns: Array<ProColumns<ResourceItem>> = [
    { title: t('passport.resourceFields.name'), dataIndex: 'name', width: 240 },
    { title: t('passport.resourceFields.code'), dataIndex: 'code' },
    { title: t('passport.resourceFields.kind'), dataIndex: 'kind', render: (_, r) => <Tag color={r.kind === 'Menu' ? 'blue' : 'default'}>{labelOf(KIND_KEYS, t, r.kind)}</Tag> },
    { title: t('passport.resourceFields.path'), dataIndex: 'path', ellipsis: true },
    { title: t('passport.resourceFields.url'), dataIndex: 'url', ellipsis: true },
    { title: t('passport.resourceFields.icon'), dataIndex: 'icon' },
    { title: t('passport.resourceFields.sort'), dataIndex: 'sort', width: 70 },
    { title: t('passport.resourceFields.hidden'), dataIndex: 'hidden', width: 70, render: (_, r) => yesNo(r.hidden) },
    { title: t('passport.resourceFields.affix'), dataIndex: 'affix', width: 80, render: (_, r) => yesNo(r.affix) },
    { title: t('passport.resourceFields.noCache'), dataIndex: 'noCache', width: 80, render: (_, r) => yesNo(r.noCache) },
    {
      title: t('console.system.actions.operation'),
      valueType: 'option',
      fixed: 'right',
      width: 200,
      render: (_, r) => [
        r.kind === 'Menu' && (
          <Permission key="add" code={code('resource-add')}>
            <a onClick={() => setEditing({ mode: 'add', parentId: r.id })}>{t('console.system.menu.addChild')}</a>
          </Permission>
        ),
        <Permission key="edit" code={code('resource-edit')}>
          <a onClick={() => setEditing({ mode: 'edit', resource: r })}>{t('console.system.actions.edit')}</a>
        </Permission>,
        <Permission key="remove" code={code('resource-remove')}>
          <Popconfirm title={t('console.system.actions.confirmDelete', { name: r.name })} onConfirm={() => remove(r)}>
            <a>{t('console.system.actions.delete')}</a>
          </Popconfirm>
        </Permission>,
      ],
    },
  ];

  return (
    <>
      <ProTable<ResourceItem>
        rowKey="id"
        actionRef={action}
        columns={columns}
        request={request}
        search={false}
        pagination={false}
        options={{ density: false, setting: false }}
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: setExpanded }}
        toolBarRender={() => [
          <Space key="expand">
            <Button onClick={() => setExpanded(allParents)}>{t('console.system.actions.expandAll')}</Button>
            <Button onClick={() => setExpanded([])}>{t('console.system.actions.collapseAll')}</Button>
          </Space>,
          <Permission key="add" code={code('resource-add')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'add', parentId: null })}>
              {t('console.system.menu.add')}
            </Button>
          </Permission>,
        ]}
      />
      {editing && <ResourceForm application={application} target={editing} onClose={() => setEditing(null)} onSaved={() => void action.current?.reload()} />}
    </>
  );
}
