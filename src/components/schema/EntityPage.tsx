import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm } from 'antd';
import { useMemo, useRef, useState, type ComponentType, type Key, type ReactNode } from 'react';
import { schemaEntities, type SchemaName } from '../../../schemas/generated/registry';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { useIsMobile } from '../../shell/device';
import { sheetButtons } from '../sheet';
import { ExpandButtons } from '../system/tableActions';
import { nestRows, parentKeys } from '../system/tree';
import { toColumns, type SearchWidgets } from './columns';
import { toCriteria, toOrder } from './criteria';
import { entityCaller, hasRoute } from '../../services/entity';
import EntityForm from './EntityForm';
import { titleKey } from './labels';
import OrgTreeSelect from './OrgTreeSelect';
import type { EntityPageContext, EntityPageExtensions, ListOrder, Row } from './pageContract';
import RefSelect from './RefSelect';
import { treeParent } from './tree';
import { rowActions as rowActionsMenu } from './RowActions';

const searchWidgets: SearchWidgets = {
  ref: (_prop, ref) => <RefSelect entity={ref.entity} />,
  org: () => <OrgTreeSelect />,
};

const PAGE_SIZE = 20;
/** A tree is one query of every row (SPEC.md §9: the organisation query asks for 9999). */
const TREE_PAGE_SIZE = 9999;

/**
 * The list page of any entity, from its schema: search form and keyword box, sortable columns, pages
 * counted from 1 with the total (or, for a tree, every row nested under its parent); add, edit and
 * delete behind the schema's action codes; then the spreadsheet buttons and the page's own
 * extensions (pageContract.ts).
 */
export function EntityPage({
  entity,
  toolbar,
  rowActions,
  leadingRowActions,
  cells,
  actionsWidth,
  formSection,
  tree,
  loadTree,
  criteria: fixed,
  calls,
  labels,
  form,
  header,
  testId,
  onSaved,
}: { entity: SchemaName } & EntityPageExtensions) {
  const schema = schemaEntities[entity];
  const x = schema['x-entity'];
  const t = useT();
  const mobile = useIsMobile();
  const actionRef = useRef<ActionType>();
  const last = useRef<{ criteria: Record<string, unknown>; order?: ListOrder; rows: Row[] }>({ criteria: {}, rows: [] });
  const [exactTotal, setExactTotal] = useState(true);
  const [editing, setEditing] = useState<{ row?: Row; values?: Record<string, unknown> } | null>(null);
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const [parents, setParents] = useState<number[]>([]);
  const caller = useMemo(() => entityCaller(schema, calls), [schema, calls]);
  const parent = tree && !loadTree ? treeParent(schema) : undefined;
  const isTree = !!tree && (!!loadTree || !!parent);

  const edit = async (row: Row) => {
    if (!hasRoute(schema, 'get')) return setEditing({ row });
    try {
      setEditing({ row: await caller.call<Row>('get', { id: row.id }) });
    } catch {
      // the request config showed the failure
    }
  };

  const ctx = useMemo<EntityPageContext>(
    () => ({
      schema,
      criteria: () => last.current.criteria,
      order: () => last.current.order,
      rows: () => last.current.rows,
      reload: () => void actionRef.current?.reload(),
      create: (values) => setEditing({ values }),
      edit: (row) => void edit(row),
    }),
    // `edit` reads the schema, the caller and state setters only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema, caller],
  );

  // The confirmation names the record (its option label: a plate, a name…), never "this record".
  const deleteQuestion = (row: Row) => {
    const name = row[x.optionLabel ?? 'name'];
    return typeof name === 'string' || typeof name === 'number'
      ? t('console.schema.deleteNamed', { name: String(name) })
      : t('console.schema.deleteConfirm');
  };

  const remove = async (row: Row) => {
    try {
      await caller.call('remove', { id: row.id });
      ctx.reload();
    } catch {
      // the request config showed the failure (e.g. 406 while other rows use it)
    }
  };

  const columns = useMemo(() => {
    const cols: Array<ProColumns<Row>> = toColumns(entity, schema, t, searchWidgets).map((c) => {
      const render = cells?.[String(c.dataIndex)];
      return render && !c.hideInTable ? { ...c, render: (_dom: ReactNode, row: Row) => render(row[String(c.dataIndex)], row, ctx) } : c;
    });
    // On a phone the key column (the first shown: a plate, a name) stays pinned on the left and the
    // actions, folded into one menu link, on the right: both in view, the figures scroll between.
    const key = cols.find((c) => !c.hideInTable);
    if (mobile && key) key.fixed = 'left';
    const canEdit = hasRoute(schema, 'update');
    const canRemove = hasRoute(schema, 'remove');
    if (canEdit || canRemove || rowActions || leadingRowActions) {
      cols.push({
        key: 'actions',
        title: t('console.schema.actions'),
        valueType: 'option',
        fixed: 'right' as const,
        // On a phone the actions are one menu link, whatever width the page asks for them.
        ...(actionsWidth && !mobile ? { width: actionsWidth } : {}),
        render: (_dom, row) =>
          rowActionsMenu(
            [
              ...(leadingRowActions?.(row, ctx) ?? []),
              canEdit && (
                <Permission key="edit" code={caller.codeOf('update')}>
                  <a onClick={() => ctx.edit(row)} data-testid="row-edit">
                    {t('console.schema.edit')}
                  </a>
                </Permission>
              ),
              canRemove && (
                <Permission key="remove" code={caller.codeOf('remove')}>
                  <Popconfirm title={deleteQuestion(row)} onConfirm={() => remove(row)}>
                    <a data-testid="row-remove">{t('console.schema.delete')}</a>
                  </Popconfirm>
                </Permission>
              ),
              ...(rowActions?.(row, ctx) ?? []),
            ].filter(Boolean),
            mobile,
          ),
      });
    }
    return cols;
    // `remove` and `deleteQuestion` only read the schema, the caller and state setters, which the deps cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entity, schema, t, cells, rowActions, leadingRowActions, actionsWidth, ctx, mobile, caller]);

  // The tree opens fully on each load: the nesting is the point of the page.
  const openTree = (nested: Row[]) => {
    const keys = parentKeys(nested as Array<Row & { children?: Row[] }>);
    setParents(keys);
    setExpanded(keys);
  };

  const searchable = columns.some((c) => c.hideInTable);
  return (
    <div data-testid={testId ?? `entity-page-${entity}`}>
      {header}
      <ProTable<Row>
        rowKey="id"
        headerTitle={t(labels?.header ?? titleKey(entity))}
        actionRef={actionRef}
        columns={columns}
        search={searchable ? { labelWidth: 'auto' } : false}
        scroll={{ x: 'max-content' }}
        options={{
          reload: true,
          density: false,
          setting: true,
          search: x.keyword?.length ? { name: 'keyword', placeholder: t('console.schema.keyword'), allowClear: true } : false,
        }}
        pagination={
          isTree
            ? false
            : {
                defaultPageSize: PAGE_SIZE,
                showSizeChanger: true,
                showTotal: (total) => t(exactTotal ? 'console.schema.total' : 'console.schema.totalAtLeast', { total }),
              }
        }
        {...(isTree ? { expandable: { expandedRowKeys: expanded, onExpandedRowsChange: setExpanded } } : {})}
        request={async (params, sort) => {
          if (isTree && loadTree) {
            const nested = await loadTree();
            last.current = { criteria: {}, rows: nested };
            openTree(nested);
            return { data: nested, success: true };
          }
          const criteria = { ...toCriteria(schema, params), ...fixed };
          const order = toOrder(schema, sort);
          const paging = parent
            ? { pageIndex: 1, pageSize: TREE_PAGE_SIZE }
            : { pageIndex: params.current ?? 1, pageSize: params.pageSize ?? PAGE_SIZE };
          const page = await caller.call<{ data: Row[]; total: number; totalExact: boolean }>('query', {
            data: { criteria, order, ...paging },
          });
          last.current = { criteria, order, rows: page.data };
          setExactTotal(page.totalExact);
          if (!parent) return { data: page.data, total: page.total, success: true };
          const nested = nestRows(page.data as Array<Row & { parentId: number | null }>, parent);
          openTree(nested);
          return { data: nested, total: page.total, success: true };
        }}
        // The request config has shown the failure; the table keeps its last rows.
        onRequestError={() => undefined}
        toolBarRender={() =>
          [
            isTree && <ExpandButtons key="expand" parents={parents} onExpand={setExpanded} />,
            hasRoute(schema, 'create') && (
              <Permission key="add" code={caller.codeOf('create')}>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => ctx.create()} data-testid="entity-add">
                  {t(labels?.add ?? 'console.schema.add')}
                </Button>
              </Permission>
            ),
            ...sheetButtons(ctx),
            ...(toolbar?.(ctx) ?? []),
          ].filter(Boolean)
        }
      />
      {editing && (
        <EntityForm
          entity={entity}
          schema={schema}
          row={editing.row}
          values={editing.values}
          section={formSection}
          caller={caller}
          titles={labels}
          extensions={form}
          onClose={() => setEditing(null)}
          onSaved={(id) => {
            setEditing(null);
            ctx.reload();
            onSaved?.(id);
          }}
        />
      )}
    </div>
  );
}

/** A page component of an entity with its extensions, for the page registry. */
export function entityPage(entity: SchemaName, extensions: EntityPageExtensions = {}): ComponentType {
  const Page = () => <EntityPage entity={entity} {...extensions} />;
  Page.displayName = `EntityPage(${entity})`;
  return Page;
}
