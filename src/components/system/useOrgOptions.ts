import { useEffect, useState } from 'react';
import { feedback } from '../../services/http/feedback';
import { orgTreeOptions, type OrgOption } from '../../services/passport';
import { useT } from '../../session/useT';

/** A TreeSelect node of an organisation. */
export interface OrgTreeNode {
  value: number;
  title: string;
  disabled?: boolean;
  children?: OrgTreeNode[];
}

export const orgTreeNodes = (options: readonly OrgOption[]): OrgTreeNode[] =>
  options.map((o) => ({ value: o.value, title: o.label, ...(o.children.length ? { children: orgTreeNodes(o.children) } : {}) }));

/** Ids from the top of the tree down to `id` (its organisation and those above it); empty when absent. */
export function lineageOf(nodes: readonly OrgTreeNode[], id: number): number[] {
  for (const n of nodes) {
    if (n.value === id) return [id];
    const below = lineageOf(n.children ?? [], id);
    if (below.length) return [n.value, ...below];
  }
  return [];
}

/**
 * The caller's organisation subtree for parent and organisation selects, reloaded when `version`
 * changes (after an organisation is added, moved or removed). A failure says so once.
 */
export function useOrgOptions(version = 0): OrgTreeNode[] {
  const t = useT();
  const [nodes, setNodes] = useState<OrgTreeNode[]>([]);
  useEffect(() => {
    let live = true;
    orgTreeOptions()
      .then((options) => live && setNodes(orgTreeNodes(options)))
      .catch(() => live && void feedback().message.error(t('console.system.messages.orgTreeFailed'), 5));
    return () => {
      live = false;
    };
  }, [version, t]);
  return nodes;
}
