import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useMemo, useRef, useState } from 'react';
import { tableRequest } from '../../../components/system/paging';
import { ActionLink, AddButton, DeleteLink, operationColumn } from '../../../components/system/tableActions';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { codeFor, deleteRole, queryRoles, type Application, type Role } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import { parseTime } from '../../../utils/formatTime';
import AuthorizeDialog from './AuthorizeDialog';
import RoleForm from './RoleForm';

export interface RoleTableProps {
  application: Application;
  orgOptions: OrgTreeNode[];
}

/** The roles of one application, each button guarded by that application's code (SPEC.md §6). */
export default function RoleTable({ application, orgOptions }: RoleTableProps) {
  const t = useT();
  const action = useRef<ActionType>();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [authorizing, setAuthorizing] = useState<Role | null>(null);
  const request = useMemo(() => tableRequest((body) => queryRoles(application, body)), [application]);
  const code = (c: string) => codeFor(c, application);
  const reload = () => void action.current?.reload();

  const columns: Array<ProColumns<Role>> = [
    { title: t('common.fields.keyword'), dataIndex: 'keyword', hideInTable: true },
    { title: t('passport.roleFields.name'), dataIndex: 'name', search: false, sorter: true },
    { title: t('passport.roleFields.description'), dataIndex: 'description', search: false, ellipsis: true },
    { title: t('passport.roleFields.orgId'), dataIndex: 'orgName', search: false },
    { title: t('passport.roleFields.orgId'), dataIndex: 'orgId', hideInTable: true, valueType: 'treeSelect', fieldProps: { treeData: orgOptions, treeDefaultExpandAll: true } },
    { title: t('common.fields.createdAt'), dataIndex: 'createdAt', search: false, sorter: true, render: (_, r) => parseTime(r.createdAt) },
    operationColumn<Role>(
      t,
      200,
      (r) => [
        <ActionLink key="authorize" code={code('role-authorize')} onClick={() => setAuthorizing(r)}>
          {t('console.system.role.authorize')}
        </ActionLink>,
        <ActionLink key="edit" code={code('role-edit')} onClick={() => setEditing(r)}>
          {t('console.system.actions.edit')}
        </ActionLink>,
        // 406 when the role is still assigned.
        <DeleteLink key="remove" code={code('role-remove')} name={r.name} remove={() => deleteRole(application, r.id)} onDeleted={reload} />,
      ],
      { fixed: false },
    ),
  ];

  return (
    <>
      <ProTable<Role>
        rowKey="id"
        actionRef={action}
        columns={columns}
        request={request}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        search={{ labelWidth: 'auto' }}
        options={{ density: false, setting: false }}
        toolBarRender={() => [
          <AddButton key="add" code={code('role-add')} onClick={() => setEditing('new')}>
            {t('console.system.role.add')}
          </AddButton>,
        ]}
      />
      {editing && <RoleForm application={application} role={editing === 'new' ? null : editing} orgOptions={orgOptions} onClose={() => setEditing(null)} onSaved={reload} />}
      {authorizing && <AuthorizeDialog application={application} role={authorizing} onClose={() => setAuthorizing(null)} />}
    </>
  );
}
