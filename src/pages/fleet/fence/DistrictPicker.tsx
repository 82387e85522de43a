import { Spin, TreeSelect, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { FenceGeometry } from '../../../../schemas/kit/fenceGeometry';
import { districtTree, type DistrictOption } from '../../../services/fences';
import { useT } from '../../../session/useT';

interface Node {
  value: string;
  title: string;
  /** Province / city / county, shown once chosen: a county's name alone is often ambiguous (朝阳区). */
  path: string;
  children?: Node[];
}

const PATH_SEPARATOR = ' / ';

const toNodes = (options: DistrictOption[], parent = ''): Node[] =>
  options.map((o) => {
    const path = parent ? `${parent}${PATH_SEPARATOR}${o.label}` : o.label;
    return { value: o.value, title: o.label, path, ...(o.children?.length ? { children: toNodes(o.children, path) } : {}) };
  });

/**
 * A district fence's district, picked from the district tree (province, city or county, searchable
 * by name) instead of typed: the value is `{districtCode}` as the server stores it. A boundary
 * already uploaded stays while the district is the same one, and is dropped with a new choice
 * (it outlines the old district).
 */
export default function DistrictPicker({
  value,
  onChange,
}: {
  value?: FenceGeometry | null;
  onChange?: (g: FenceGeometry | null) => void;
}) {
  const t = useT();
  const [tree, setTree] = useState<Node[] | null>(null);
  useEffect(() => {
    let live = true;
    districtTree()
      .then((options) => live && setTree(toNodes(options)))
      .catch(() => live && setTree([])); // the request config showed the failure
    return () => {
      live = false;
    };
  }, []);
  const code = value?.districtCode;
  const path = useMemo(() => {
    const find = (nodes: Node[]): string | undefined => {
      for (const n of nodes) {
        if (n.value === code) return n.path;
        const below = n.children && find(n.children);
        if (below) return below;
      }
      return undefined;
    };
    return tree && code ? find(tree) : undefined;
  }, [tree, code]);

  return (
    <div data-testid="fence-district" data-code={code ?? ''}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 6 }}>
        {t('console.fence.hint.district')}
      </Typography.Paragraph>
      <TreeSelect<string>
        style={{ width: '100%' }}
        showSearch
        allowClear
        treeNodeFilterProp="title"
        treeNodeLabelProp="path"
        placeholder={t('console.fence.districtCode')}
        loading={!tree}
        notFoundContent={tree ? undefined : <Spin size="small" />}
        treeData={tree ?? []}
        value={code}
        onChange={(c) => onChange?.(c ? (c === value?.districtCode ? value : { districtCode: c }) : null)}
        popupMatchSelectWidth
        listHeight={320}
      />
      {code && (
        <Typography.Text type="secondary" data-testid="fence-district-chosen">
          {t('console.fence.districtChosen', { code, path: path ?? code })}
        </Typography.Text>
      )}
    </div>
  );
}
