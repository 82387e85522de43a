import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Space } from 'antd';
import type { Key, ReactNode } from 'react';
import type { Translate } from '../../../schemas/kit/i18n';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';

/** The operation column of a system table: the row's links, kept in view on the right unless `fixed` is false. */
export function operationColumn<T>(
  t: Translate,
  width: number,
  links: (row: T) => ReactNode[],
  { fixed = true }: { fixed?: boolean } = {},
): ProColumns<T> {
  return {
    title: t('console.system.actions.operation'),
    valueType: 'option',
    ...(fixed ? { fixed: 'right' } : {}),
    width,
    render: (_, row) => links(row),
  };
}

/** A row link shown only to holders of `code`. */
export function ActionLink({ code, onClick, children }: { code: string; onClick: () => void; children: ReactNode }) {
  return (
    <Permission code={code}>
      <a onClick={onClick}>{children}</a>
    </Permission>
  );
}

/**
 * A row's delete link under `code`: asks first ('确定删除{name}吗？'), then deletes and calls
 * `onDeleted`. A refusal is shown by the request client (SPEC.md §8, e.g. the 406 naming what still
 * uses the row), and the table stays as it was.
 */
export function DeleteLink({
  code,
  name,
  remove,
  onDeleted,
}: {
  code: string;
  name: string;
  remove: () => Promise<unknown>;
  onDeleted: () => void;
}) {
  const t = useT();
  const confirm = async () => {
    try {
      await remove();
      onDeleted();
    } catch {
      // Shown by the request client.
    }
  };
  return (
    <Permission code={code}>
      <Popconfirm title={t('console.system.actions.confirmDelete', { name })} onConfirm={confirm}>
        <a>{t('console.system.actions.delete')}</a>
      </Popconfirm>
    </Permission>
  );
}

/** The toolbar's primary "add" button, shown only to holders of `code`. */
export function AddButton({ code, onClick, children }: { code: string; onClick: () => void; children: ReactNode }) {
  return (
    <Permission code={code}>
      <Button type="primary" icon={<PlusOutlined />} onClick={onClick}>
        {children}
      </Button>
    </Permission>
  );
}

/** Expand every row of a tree table that has children (`parents`), or collapse them all. */
export function ExpandButtons({ parents, onExpand }: { parents: readonly Key[]; onExpand: (keys: readonly Key[]) => void }) {
  const t = useT();
  return (
    <Space>
      <Button onClick={() => onExpand(parents)}>{t('console.system.actions.expandAll')}</Button>
      <Button onClick={() => onExpand([])}>{t('console.system.actions.collapseAll')}</Button>
    </Space>
  );
}
