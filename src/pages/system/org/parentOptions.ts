import type { OrgTreeNode } from '../../../components/system/useOrgOptions';

/**
 * Parent choices for an organisation being edited: itself and everything below it are disabled
 * (an organisation cannot move under itself), and a parent outside the caller's subtree (the
 * caller's own organisation's) is shown, disabled, so the field still names it.
 */
export function parentOptions(
  tree: readonly OrgTreeNode[],
  self: { id: number; parentId: number | null; parentName: string | null },
): OrgTreeNode[] {
  const disable = (nodes: readonly OrgTreeNode[], inside: boolean): OrgTreeNode[] =>
    nodes.map((n) => {
      const mine = inside || n.value === self.id;
      return { ...n, ...(mine ? { disabled: true } : {}), ...(n.children ? { children: disable(n.children, mine) } : {}) };
    });
  const out = disable(tree, false);
  const known = (nodes: readonly OrgTreeNode[]): boolean => nodes.some((n) => n.value === self.parentId || known(n.children ?? []));
  if (self.parentId !== null && !known(tree))
    out.unshift({ value: self.parentId, title: self.parentName ?? String(self.parentId), disabled: true });
  return out;
}
