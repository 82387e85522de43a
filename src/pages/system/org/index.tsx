import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Typography } from 'antd';
import { useMemo, useRef, useState, type Key } from 'react';
import { labelOf, ORG_TYPE_KEYS, STATUS_KEYS, valueEnumOf } from '../../../components/system/labels';
import { tableRequest } from '../../../components/system/paging';
import { ActionLink, AddButton, DeleteLink, ExpandButtons, operationColumn } from '../../../components/system/tableActions';
import { nestRows, parentKeys, type Nested } from '../../../components/system/tree';
import { useOrgOptions } from '../../../components/system/useOrgOptions';
import { deleteOrg, queryOrgs, type Org, type Page, type PagingBody } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import OrgForm, { type OrgFormTarget } from './OrgForm';
import OrgLinkForm from './OrgLinkForm';
import { usePlatformAdmin } from './usePlatformAdmin';

type OrgNode = Nested<Org>;

/** SPEC.md §9: the organisation list is one query of up to 9999 rows, shown as a tree. */
const ORG_PAGE_SIZE = 9999;
const queryTree = async (body: PagingBody): Promise<Page<OrgNode>> => {
  const page = await queryOrgs({ ...body, pageIndex: 1, pageSize: ORG_PAGE_SIZE });
  return { ...page, data: nestRows(page.data) };
};

/** Organisations (SPEC.md §3, §7): the caller's subtree as a tree table, with add, edit, link and delete. */
export default function OrgPage() {
  const t = useT();
  const action = useRef<ActionType>();
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const [allParents, setAllParents] = useState<number[]>([]);
  const [editing, setEditing] = useState<OrgFormTarget | null>(null);
  const [linking, setLinking] = useState<Org | null>(null);
  const [version, setVersion] = useState(0);
  const orgOptions = useOrgOptions(version);
  const platformAdmin = usePlatformAdmin();

  const changed = () => {
    setVersion((v) => v + 1);
    void action.current?.reload();
  };

  const request = useMemo(() => {
    const load = tableRequest(queryTree);
    return async (...args: Parameters<typeof load>) => {
      const answer = await load(...args);
      const keys = parentKeys(answer.data);
      setAllParents(keys);
      // The tree opens fully on each load: nested organisations are the point of the page.
      setExpanded(keys);
      return answer;
    };
  }, []);

  const columns: Array<ProColumns<OrgNode>> = [
    { title: t('common.fields.keyword'), dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: t('console.system.org.keywordHint') } },
    { title: t('org.fields.name'), dataIndex: 'name', search: false },
    { title: t('org.fields.code'), dataIndex: 'code', search: false },
    { title: t('org.fields.type'), dataIndex: 'type', valueType: 'select', valueEnum: valueEnumOf(ORG_TYPE_KEYS, t) },
    { title: t('org.fields.status'), dataIndex: 'status', valueType: 'select', valueEnum: valueEnumOf(STATUS_KEYS, t), render: (_, r) => <Typography.Text type={r.status === 'enabled' ? undefined : 'danger'}>{labelOf(STATUS_KEYS, t, r.status)}</Typography.Text> },
    { title: t('org.fields.contact'), dataIndex: 'contact', search: false },
    { title: t('org.fields.phone'), dataIndex: 'phone', search: false },
    { title: t('org.fields.address'), dataIndex: 'address', search: false, ellipsis: true, width: 200 },
    { title: t('org.fields.isSystem'), dataIndex: 'isSystem', search: false, render: (_, r) => t(r.isSystem ? 'common.yes' : 'common.no') },
    { title: t('org.fields.link'), dataIndex: 'link', search: false, ellipsis: true, render: (_, r) => (r.link ? <a href={r.link} target="_blank" rel="noreferrer noopener">{r.link}</a> : '-') },
    operationColumn<OrgNode>(t, 250, (r) => [
      <ActionLink key="add" code="org-add" onClick={() => setEditing({ mode: 'add', parentId: r.id })}>
        {t('console.system.org.addChild')}
      </ActionLink>,
      <ActionLink key="edit" code="org-edit" onClick={() => setEditing({ mode: 'edit', org: r })}>
        {t('console.system.actions.edit')}
      </ActionLink>,
      <ActionLink key="link" code="org-editLink" onClick={() => setLinking(r)}>
        {t('console.system.org.editLink')}
      </ActionLink>,
      // 406 while it has children, accounts or vehicles.
      <DeleteLink key="remove" code="org-remove" name={r.name} remove={() => deleteOrg(r.id)} onDeleted={changed} />,
    ]),
  ];

  return (
    <div data-testid="org-page">
      <ProTable<OrgNode>
        rowKey="id"
        actionRef={action}
        columns={columns}
        request={request}
        pagination={false}
        scroll={{ x: 'max-content' }}
        search={{ labelWidth: 'auto' }}
        options={{ density: false, setting: false }}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: setExpanded }}
        headerTitle={t('menu.system-org')}
        toolBarRender={() => [
          <ExpandButtons key="expand" parents={allParents} onExpand={setExpanded} />,
          <AddButton key="add" code="org-add" onClick={() => setEditing({ mode: 'add' })}>
            {t('console.system.org.add')}
          </AddButton>,
        ]}
      />
      {editing && <OrgForm target={editing} orgOptions={orgOptions} platformAdmin={platformAdmin} onClose={() => setEditing(null)} onSaved={changed} />}
      {linking && <OrgLinkForm org={linking} onClose={() => setLinking(null)} onSaved={changed} />}
    </div>
  );
}
