import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm } from 'antd';
import { useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { entities, type EntityName } from '../../../schemas/generated/registry';
import { permissionOf, type Operation } from '../../../schemas/kit/entity';
import Permission from '../../shell/Permission';
import { useT } from '../../shell/useT';
import { sheetButtons } from '../sheet';
import { toColumns, type SearchWidgets } from './columns';
import { toCriteria, toOrder } from './criteria';
import { callEntity, hasRoute, queryPage } from './entityApi';
import EntityForm from './EntityForm';
import { titleKey } from './labels';
import OrgTreeSelect from './OrgTreeSelect';
import type { EntityPageContext, EntityPageExtensions, ListOrder, Row } from './pageContract';
import RefSelect from './RefSelect';

const searchWidgets: SearchWidgets = {
  ref: (_prop, ref) => <RefSelect entity={ref.entity} />,
  org: () => <OrgTreeSelect />,
};

const PAGE_SIZE = 20;

/**
 * The list page of any entity, from its schema: search form and keyword box, sortable columns, pages
 * counted from 1 with the total; add, edit and delete behind the schema's action codes; then the
 * spreadsheet buttons and the page's own extensions (pageContract.ts).
 */
export function EntityPage({ entity, toolbar, rowActions, cells, actionsWidth }: { entity: EntityName } & EntityPageExtensions) {
  const schema = entities[entity];
  const x = schema['x-entity'];
  const t = useT();
  const actionRef = useRef<ActionType>();
  const last = useRef<{ criteria: Record<string, unknown>; order?: ListOrder; rows: Row[] }>({ criteria: {}, rows: [] });
  const [exactTotal, setExactTotal] = useState(true);
  const [editing, setEditing] = useState<{ row?: Row } | null>(null);
  const code = (op: Operation) => permissionOf(x, op);

  const ctx = useMemo<EntityPageContext>(
    () => ({
      schema,
      criteria: () => last.current.criteria,
      order: () => last.current.order,
      rows: () => last.current.rows,
      reload: () => void actionRef.current?.reload(),
    }),
    [schema],
  );

  const edit = async (row: Row) => {
    if (!hasRoute(schema, 'get')) return setEditing({ row });
    try {
      setEditing({ row: await callEntity<Row>(schema, 'get', { id: row.id }) });
    } catch {
      // the request config showed the failure
    }
  };

  const remove = async (row: Row) => {
    try {
      await callEntity(schema, 'remove', { id: row.id });
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
    const canEdit = hasRoute(schema, 'update');
    const canRemove = hasRoute(schema, 'remove');
    if (canEdit || canRemove || rowActions) {
      cols.push({
        key: 'actions',
        title: t('console.schema.actions'),
        valueType: 'option',
        fixed: 'right',
        ...(actionsWidth ? { width: actionsWidth } : {}),
        render: (_dom, row) => [
          canEdit && (
            <Permission key="edit" code={code('update')}>
              <a onClick={() => void edit(row)} data-testid="row-edit">
                {t('console.schema.edit')}
              </a>
            </Permission>
          ),
          canRemove && (
            <Permission key="remove" code={code('remove')}>
              <Popconfirm title={t('console.schema.deleteConfirm')} onConfirm={() => remove(row)}>
                <a data-testid="row-remove">{t('console.schema.delete')}</a>
              </Popconfirm>
            </Permission>
          ),
          ...(rowActions?.(row, ctx) ?? []),
        ].filter(Boolean),
      });
    }
    return cols;
    // `edit`, `remove` and `code` only read the schema and state setters, which the deps cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entity, schema, t, cells, rowActions, actionsWidth, ctx]);

  const searchable = columns.some((c) => c.hideInTable);
  return (
    <div data-testid={`entity-page-${entity}`}>
      <ProTable<Row>
        rowKey="id"
        headerTitle={t(titleKey(entity))}
        actionRef={actionRef}
        columns={columns}
        search={searchable ? { labelWidth: 'auto' } : false}
        scroll={{ x: 'max-content' }}
        options={{ reload: true, density: false, setting: true, search: x.keyword?.length ? { name: 'keyword', placeholder: t('console.schema.keyword'), allowClear: true } : false }}
        pagination={{ defaultPageSize: PAGE_SIZE, showSizeChanger: true, showTotal: (total) => t(exactTotal ? 'console.schema.total' : 'console.schema.totalAtLeast', { total }) }}
        request={async (params, sort) => {
          const criteria = toCriteria(schema, params);
          const order = toOrder(schema, sort);
          const page = await queryPage(schema, { criteria, order, pageIndex: params.current ?? 1, pageSize: params.pageSize ?? PAGE_SIZE });
          last.current = { criteria, order, rows: page.data };
          setExactTotal(page.totalExact);
          return { data: page.data, total: page.total, success: true };
        }}
        // The request config has shown the failure; the table keeps its last rows.
        onRequestError={() => undefined}
        toolBarRender={() => [
          hasRoute(schema, 'create') && (
            <Permission key="add" code={code('create')}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="entity-add">
                {t('console.schema.add')}
              </Button>
            </Permission>
          ),
          ...sheetButtons(ctx),
          ...(toolbar?.(ctx) ?? []),
        ].filter(Boolean)}
      />
      {editing && (
        <EntityForm
          entity={entity}
          schema={schema}
          row={editing.row}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            ctx.reload();
          }}
        />
      )}
    </div>
  );
}

/** A page component of an entity with its extensions, for the page registry. */
export function entityPage(entity: EntityName, extensions: EntityPageExtensions = {}): ComponentType {
  const Page = () => <EntityPage entity={entity} {...extensions} />;
  Page.displayName = `EntityPage(${entity})`;
  return Page;
}

