import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Tag } from 'antd';
import { useMemo, useRef, useState, type Key } from 'react';
import { KIND_KEYS, labelOf } from '../../../components/system/labels';
import { ActionLink, AddButton, DeleteLink, ExpandButtons, operationColumn } from '../../../components/system/tableActions';
import { parentKeys, pruneEmpty } from '../../../components/system/tree';
import { allResources, codeFor, deleteResource, type Application, type ResourceItem } from '../../../services/passport';
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
  const reload = () => void action.current?.reload();

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
    operationColumn<ResourceItem>(t, 200, (r) => [
      r.kind === 'Menu' && (
        <ActionLink key="add" code={code('resource-add')} onClick={() => setEditing({ mode: 'add', parentId: r.id })}>
          {t('console.system.menu.addChild')}
        </ActionLink>
      ),
      <ActionLink key="edit" code={code('resource-edit')} onClick={() => setEditing({ mode: 'edit', resource: r })}>
        {t('console.system.actions.edit')}
      </ActionLink>,
      // 406 while it still has children.
      <DeleteLink key="remove" code={code('resource-remove')} name={r.name} remove={() => deleteResource(application, r.id)} onDeleted={reload} />,
    ]),
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
          <ExpandButtons key="expand" parents={allParents} onExpand={setExpanded} />,
          <AddButton key="add" code={code('resource-add')} onClick={() => setEditing({ mode: 'add', parentId: null })}>
            {t('console.system.menu.add')}
          </AddButton>,
        ]}
      />
      {editing && <ResourceForm application={application} target={editing} onClose={() => setEditing(null)} onSaved={reload} />}
    </>
  );
}
