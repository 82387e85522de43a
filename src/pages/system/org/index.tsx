import { TreeSelect, Typography } from 'antd';
import { useMemo } from 'react';
import { entityPage } from '../../../components/schema/EntityPage';
import DialogAction from '../../../components/schema/DialogAction';
import type { EntityPageContext, FieldContext, Row } from '../../../components/schema/pageContract';
import { useOrgOptions } from '../../../components/system/useOrgOptions';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import type { Org } from '../../../services/passport';
import OrgLinkForm from './OrgLinkForm';
import { parentOptions } from './parentOptions';
import { usePlatformAdmin } from './usePlatformAdmin';

/** "Add child" on a row: the create dialog with the row as the parent. */
function AddChild({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  return (
    <Permission code="org-add">
      <a onClick={() => ctx.create({ parentId: row.id })} data-testid="org-add-child">
        {t('console.system.org.addChild')}
      </a>
    </Permission>
  );
}

/** "Edit link" on a row (`org-editLink`): the organisation's external link. */
function EditLink({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  return (
    <Permission code="org-editLink">
      <DialogAction
        label={t('console.system.org.editLink')}
        dialog={(close) => <OrgLinkForm org={row as unknown as Org} onClose={close} onSaved={ctx.reload} />}
      />
    </Permission>
  );
}

/**
 * The parent of an organisation: the caller's subtree, with the organisation itself and everything
 * below it disabled when editing (it cannot move under itself); the top organisation keeps none.
 */
function ParentInput({ row, form: _form, ...rest }: FieldContext & { value?: number; onChange?: (v: number) => void }) {
  const t = useT();
  const tree = useOrgOptions();
  const options = useMemo(() => (row ? parentOptions(tree, row as unknown as Org) : tree), [tree, row]);
  return (
    <TreeSelect
      {...rest}
      treeData={options}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      disabled={!!row && row.parentId === null}
      placeholder={t('org.fields.parentId')}
      data-testid="org-parent"
    />
  );
}

const statusCell = (value: unknown) => <OrgStatus value={value} />;
function OrgStatus({ value }: { value: unknown }) {
  const t = useT();
  return (
    <Typography.Text type={value === 'enabled' ? undefined : 'danger'}>
      {t(`entity.organisation.enums.status.${String(value)}`)}
    </Typography.Text>
  );
}

/**
 * Organisations (SPEC.md §3, §7): the caller's subtree as a tree table (one query of up to 9999
 * rows), with add (at the top or under a row), edit, the external link, delete (406 while it has
 * children, accounts or vehicles) and the sheet buttons. Only the platform's administrators set or
 * see the system flag, explained where it is chosen.
 */
export default entityPage('organisation', {
  tree: true,
  testId: 'org-page',
  labels: {
    header: 'menu.system-org',
    add: 'console.system.org.add',
    createTitle: 'console.system.org.add',
    editTitle: 'console.system.org.edit',
  },
  leadingRowActions: (row, ctx) => [<AddChild key="addChild" row={row} ctx={ctx} />],
  rowActions: (row, ctx) => [<EditLink key="link" row={row} ctx={ctx} />],
  actionsWidth: 250,
  cells: {
    status: statusCell,
    link: (value) =>
      typeof value === 'string' && value ? (
        <a href={value} target="_blank" rel="noreferrer noopener">
          {value}
        </a>
      ) : (
        '-'
      ),
  },
  form: {
    modal: true,
    changesOnly: true,
    inputs: { parentId: (p) => <ParentInput {...p} /> },
    help: { isSystem: 'console.system.org.isSystemHelp' },
    // A hook of the dialog: whether the caller administers the platform is asked once per dialog.
    useHidden: () => (usePlatformAdmin() ? [] : ['isSystem']),
  },
});
