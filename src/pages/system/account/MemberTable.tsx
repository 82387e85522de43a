import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo, useRef, type ReactNode } from 'react';
import { APPLICATION_KEYS, labelOf, MEMBER_TYPE_KEYS, STATUS_KEYS, valueEnumOf } from '../../../components/system/labels';
import { tableRequest } from '../../../components/system/paging';
import { AddButton, operationColumn } from '../../../components/system/tableActions';
import type { OrgTreeNode } from '../../../components/system/useOrgOptions';
import { queryMembers, type Member } from '../../../services/passport';
import { isImpersonating, loadSession } from '../../../services/session';
import { impersonate } from '../../../shell/logout';
import Permission from '../../../shell/Permission';
import { useT } from '../../../shell/useT';
import { parseTime } from '../../../utils/formatTime';

export interface MemberTableProps {
  /** Fixed criteria (the App account page lists members of vehicle-app). */
  fixed?: Record<string, unknown>;
  orgOptions: OrgTreeNode[];
  /** The toolbar's buttons; each guards itself. */
  toolbar?: (reload: () => void) => ReactNode[];
  /** Row buttons; each guards itself. */
  rowActions: (member: Member, reload: () => void) => ReactNode[];
  /** Show the applications column (the web account page). */
  showApplications?: boolean;
}

/**
 * Accounts of the caller's subtree (SPEC.md §3): search by login name, name, mobile, member type
 * and organisation; sign-in count and last sign-in shown. The account and App account pages share it.
 */
export default function MemberTable({ fixed = {}, orgOptions, toolbar, rowActions, showApplications = false }: MemberTableProps) {
  const t = useT();
  const action = useRef<ActionType>();
  const fixedKey = JSON.stringify(fixed);
  const request = useMemo(() => tableRequest(queryMembers, JSON.parse(fixedKey) as Record<string, unknown>), [fixedKey]);
  const reload = () => void action.current?.reload();

  const columns: Array<ProColumns<Member>> = [
    { title: t('passport.fields.loginName'), dataIndex: 'loginName', sorter: true },
    { title: t('passport.fields.name'), dataIndex: 'name', sorter: true },
    { title: t('passport.fields.mobile'), dataIndex: 'mobile' },
    { title: t('passport.fields.memberType'), dataIndex: 'memberType', valueType: 'select', valueEnum: valueEnumOf(MEMBER_TYPE_KEYS, t), render: (_, r) => labelOf(MEMBER_TYPE_KEYS, t, r.memberType) },
    { title: t('passport.fields.orgId'), dataIndex: 'orgName', search: false },
    { title: t('passport.fields.orgId'), dataIndex: 'orgId', hideInTable: true, valueType: 'treeSelect', fieldProps: { treeData: orgOptions, treeDefaultExpandAll: true } },
    {
      title: t('passport.fields.roleIds'),
      dataIndex: 'roleNames',
      search: false,
      render: (_, r) => (
        <Space size={[0, 4]} wrap>
          {r.roleNames.map((n, i) => (
            <Tag key={`${n}-${i}`}>{n}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('passport.fields.status'),
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: valueEnumOf(STATUS_KEYS, t),
      render: (_, r) => <Typography.Text type={r.status === 'enabled' ? undefined : 'danger'}>{labelOf(STATUS_KEYS, t, r.status)}</Typography.Text>,
    },
    { title: t('console.system.account.signInCount'), dataIndex: 'signInCount', search: false, sorter: true },
    { title: t('console.system.account.lastSignIn'), dataIndex: 'lastSignIn', search: false, sorter: true, render: (_, r) => parseTime(r.lastSignIn) ?? '-' },
    {
      title: t('passport.fields.applications'),
      dataIndex: 'applications',
      search: false,
      hideInTable: !showApplications,
      render: (_, r) => r.applications.map((a) => labelOf(APPLICATION_KEYS, t, a)).join(' / '),
    },
    { title: t('passport.fields.expireDate'), dataIndex: 'expireDate', search: false, sorter: true, render: (_, r) => r.expireDate ?? '-' },
    operationColumn<Member>(t, 220, (r) => rowActions(r, reload)),
  ];

  return (
    <ProTable<Member>
      rowKey="id"
      actionRef={action}
      columns={columns}
      request={request}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      search={{ labelWidth: 'auto' }}
      options={{ density: false, setting: false }}
      scroll={{ x: 'max-content' }}
      toolBarRender={toolbar ? () => toolbar(reload) : false}
    />
  );
}

/**
 * "Simulate login" for one account (SPEC.md §4), under `member-simulate`; not offered on one's
 * own row nor while already simulating (the server refuses both).
 */
export function SimulateLink({ member }: { member: Member }) {
  const t = useT();
  const session = loadSession();
  if (!session || session.memberId === member.id || isImpersonating()) return null;
  return (
    <Permission code="member-simulate">
      <Popconfirm
        title={t('console.system.account.simulateConfirm', { name: member.name })}
        onConfirm={() =>
          impersonate(member.id).catch(() => {
            // Shown by the request client (e.g. 406: a disabled or expired account).
          })
        }
      >
        <a data-testid="simulate-login">{t('console.system.account.simulate')}</a>
      </Popconfirm>
    </Permission>
  );
}

export const RegisterButton = ({ onClick }: { onClick: () => void }) => {
  const t = useT();
  return (
    <AddButton code="member-register" onClick={onClick}>
      {t('console.system.account.register')}
    </AddButton>
  );
};
