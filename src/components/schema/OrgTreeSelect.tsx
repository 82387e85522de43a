import type { CSSProperties } from 'react';
import { TreeSelect } from 'antd';
import { useRef, useState } from 'react';
import { loadOrgTree, type OrgNode } from '../../services/entity';

export interface OrgTreeSelectProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The name of the current organisation (the row's `orgName`), shown before the tree is loaded. */
  initialLabel?: string | null;
  placeholder?: string;
  id?: string;
  /** Outside a form item (a filter bar), its width. */
  style?: CSSProperties;
}

/** The organisation of a row: the caller's subtree (`GET /vehicle/org/tree/options`), loaded when first opened. */
export default function OrgTreeSelect({ value, onChange, initialLabel, placeholder, id, style }: OrgTreeSelectProps) {
  const [tree, setTree] = useState<OrgNode[]>(() => (value != null && initialLabel ? [{ value, label: initialLabel }] : []));
  const [loading, setLoading] = useState(false);
  const loaded = useRef(false);
  return (
    <TreeSelect<number | null>
      id={id}
      style={style}
      showSearch
      allowClear
      treeDefaultExpandAll
      treeNodeFilterProp="label"
      fieldNames={{ label: 'label', value: 'value', children: 'children' }}
      treeData={tree}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      placeholder={placeholder}
      loading={loading}
      onOpenChange={(open) => {
        if (!open || loaded.current) return;
        loaded.current = true;
        setLoading(true);
        loadOrgTree()
          .then(setTree)
          .catch(() => undefined) // the request config already showed the failure
          .finally(() => setLoading(false));
      }}
      data-testid="org-tree-select"
    />
  );
}
