import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { tableRequest } from '../../../components/system/paging';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { codeFor, deleteRole, queryRoles, type Application, type Role } from '../../../services/passport';
import Permission from '../../../shell/Permission';
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

  const remove = async (role: Role) => {
    try {
      await deleteRole(application, role.id);
      void action.current?.reload();
    } catch {
      // Shown by the request client (406: the role is still assigned).
    }
  };

  const columns: Array<ProColumns<Role>> = [
    { title: t('common.fields.keyword'), dataIndex: 'keyword', hideInTable: true },
    { title: t('passport.roleFields.name'), dataIndex: 'name', search: false, sorter: true },
    { title: t('passport.roleFields.description'), dataIndex: 'description', search: false, ellipsis: true },
    { title: t('passport.roleFields.orgId'), dataIndex: 'orgName', search: false },
    { title: t('passport.roleFields.orgId'), dataIndex: 'orgId', hideInTable: true, valueType: 'treeSelect', fieldProps: { treeData: orgOptions, treeDefaultExpandAll: true } },
    { title: t('common.fields.createdAt'), dataIndex: 'createdAt', search: false, sorter: true, render: (_, r) => parseTime(r.createdAt) },
    {
      title: t('console.system.actions.operation'),
      valueType: 'option',
      width: 200,
      render: (_, r) => [
        <Permission key="authorize" code={code('role-authorize')}>
          <a onClick={() => setAuthorizing(r)}>{t('console.system.role.authorize')}</a>
        </Permission>,
        <Permission key="edit" code={code('role-edit')}>
          <a onClick={() => setEditing(r)}>{t('console.system.actions.edit')}</a>
        </Permission>,
        <Permission key="remove" code={code('role-remove')}>
          <Popconfirm title={t('console.system.actions.confirmDelete', { name: r.name })} onConfirm={() => remove(r)}>
            <a>{t('console.system.actions.delete')}</a>
          </Popconfirm>
        </Permission>,
      ],
    },
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
          <Permission key="add" code={code('role-add')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('console.system.role.add')}
            </Button>
          </Permission>,
        ]}
      />
      {editing && (
        <RoleForm application={application} role={editing === 'new' ? null : editing} orgOptions={orgOptions} onClose={() => setEditing(null)} onSaved={() => void action.current?.reload()} />
      )}
      {authorizing && <AuthorizeDialog application={application} role={authorizing} onClose={() => setAuthorizing(null)} />}
    </>
  );
}
