import { Form, Radio, Tag, TreeSelect, type FormInstance } from 'antd';
import { useEffect, useState } from 'react';
import { EntityPage } from '../../../components/schema/EntityPage';
import type { EntityPageContext, FieldContext, FormExtensions, Row } from '../../../components/schema/pageContract';
import ApplicationTabs from '../../../components/system/ApplicationTabs';
import { APPLICATION_CALLS, perApplication } from '../../../components/system/perApplication';
import { KIND_KEYS, labelOf, optionsOf } from '../../../components/system/labels';
import { pruneEmpty } from '../../../components/system/tree';
import { feedback } from '../../../services/http/feedback';
import { allResources, codeFor, type Application } from '../../../services/passport';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import { menuParents, type ParentNode } from './parentOptions';

/** The whole tree of one application, as the passport answers it; a leaf has no empty child list. */
const LOADERS = perApplication((application) => async () => pruneEmpty(await allResources(application)) as unknown as Row[]);

/** "Add child" on a menu (an action is a leaf): the create dialog with the row as the parent. */
function AddChild({ application, row, ctx }: { application: Application; row: Row; ctx: EntityPageContext }) {
  const t = useT();
  if (row.kind !== 'Menu') return null;
  return (
    <Permission code={codeFor('resource-add', application)}>
      <a onClick={() => ctx.create({ parentId: row.id })} data-testid="menu-add-child">
        {t('console.system.menu.addChild')}
      </a>
    </Permission>
  );
}

/**
 * The parent of a resource: the application's menus, with the resource itself and everything below
 * it disabled (it cannot become its own ancestor); empty means top level.
 */
function ParentInput({
  application,
  row,
  form: _form,
  value,
  onChange,
  ...rest
}: FieldContext & { application: Application; value?: number | null; onChange?: (v: number | null) => void }) {
  const t = useT();
  const [parents, setParents] = useState<ParentNode[]>([]);
  const [failed, setFailed] = useState(false);
  const selfId = row?.id ?? null;
  useEffect(() => {
    let live = true;
    allResources(application)
      .then((tree) => live && setParents(menuParents(tree, selfId)))
      .catch(() => {
        if (!live) return;
        setFailed(true);
        void feedback().message.error(t('console.system.menu.parentLoadFailed'), 5);
      });
    return () => {
      live = false;
    };
  }, [application, selfId, t]);
  return (
    <TreeSelect
      {...rest}
      value={value ?? undefined}
      // Cleared means top level, which the server takes as null.
      onChange={(v?: number) => onChange?.(v ?? null)}
      treeData={parents}
      showSearch
      treeNodeFilterProp="title"
      allowClear
      status={failed ? 'error' : undefined}
      placeholder={t(failed ? 'console.system.menu.parentLoadFailed' : 'console.system.menu.topLevel')}
      data-testid="menu-parent"
    />
  );
}

/** Menu or action as two buttons, as the choice is between two and always made. */
function KindInput({ row: _row, form: _form, ...rest }: FieldContext & { value?: string; onChange?: (v: unknown) => void }) {
  const t = useT();
  return <Radio.Group {...rest} options={optionsOf(KIND_KEYS, t)} />;
}

function KindCell({ value }: { value: unknown }) {
  const t = useT();
  return <Tag color={value === 'Menu' ? 'blue' : 'default'}>{labelOf(KIND_KEYS, t, String(value))}</Tag>;
}

const LABELS = {
  header: 'menu.system-menu',
  add: 'console.system.menu.add',
  createTitle: 'console.system.menu.add',
  editTitle: 'console.system.menu.edit',
};
const CELLS = { kind: (value: unknown) => <KindCell value={value} /> };
/** What only a menu has (a route and how the tab bar treats it): an action, a leaf, has none of it. */
const MENU_ONLY = ['path', 'url', 'icon', 'activeMenu', 'hidden', 'affix', 'noCache'] as const;
/** A hook of the dialog: the menu-only fields follow the kind as it is chosen. */
function useMenuOnlyHidden(_mode: 'create' | 'update', row: Row | undefined, form: FormInstance): readonly string[] {
  const kind: unknown = Form.useWatch('kind', form) ?? row?.kind;
  return kind === 'Action' ? MENU_ONLY : [];
}

/** One form per application: the parent picker lists that application's menus. */
const FORMS = perApplication<FormExtensions>((application) => ({
  modal: true,
  changesOnly: true,
  useHidden: useMenuOnlyHidden,
  inputs: { parentId: (p) => <ParentInput application={application} {...p} />, kind: (p) => <KindInput {...p} /> },
}));
const ADD_CHILD = perApplication((application) => (row: Row, ctx: EntityPageContext) => [
  <AddChild key="addChild" application={application} row={row} ctx={ctx} />,
]);

/**
 * Menus (SPEC.md §3 menu resources): the resource schema page once per application (obd-web,
 * vehicle-app), each the whole tree of menus and their actions, with add (at the top or under a
 * menu), edit (the parent cannot be the resource or below it) and delete (406 while it has children),
 * guarded by that application's codes.
 */
export default function MenuPage() {
  return (
    <ApplicationTabs
      testId="menu-page"
      page={(application) => (
        <EntityPage
          entity="resource"
          testId={`menu-page-${application}`}
          tree
          loadTree={LOADERS[application]}
          calls={APPLICATION_CALLS[application]}
          labels={LABELS}
          leadingRowActions={ADD_CHILD[application]}
          cells={CELLS}
          actionsWidth={200}
          form={FORMS[application]}
        />
      )}
    />
  );
}
