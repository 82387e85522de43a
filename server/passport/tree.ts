/** Builds a forest from flat rows with `id` and `parentId`; children keep the rows' order. */
export type TreeNode<T> = T & { children: Array<TreeNode<T>> };

export function buildTree<T extends { id: number; parentId: number | null }>(rows: T[]): Array<TreeNode<T>> {
  const nodes = new Map<number, TreeNode<T>>();
  for (const r of rows) nodes.set(r.id, { ...r, children: [] });
  const roots: Array<TreeNode<T>> = [];
  for (const n of nodes.values()) {
    const parent = n.parentId === null ? undefined : nodes.get(n.parentId);
    // A row whose parent is not in the set (e.g. outside the caller's subtree) is a root.
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}
