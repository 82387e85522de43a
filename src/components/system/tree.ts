/** Tree helpers for the system pages' tree tables, selects and checkable trees. */

export type Nested<T> = T & { children?: Array<Nested<T>> };

/**
 * Nests flat rows by their parent's id (`parentId`, or the property `parent` names), keeping their
 * order. A row whose parent is not among them (the caller's own organisation, or a search hit) is a
 * root. Leaves get no `children`, so tables show no expand icon on them.
 */
export function nestRows<T extends { id: number }>(rows: readonly T[], parent = 'parentId'): Array<Nested<T>> {
  const nodes = new Map<number, Nested<T>>(rows.map((r) => [r.id, { ...r }]));
  const roots: Array<Nested<T>> = [];
  for (const node of nodes.values()) {
    const parentId = (node as Record<string, unknown>)[parent];
    const above = typeof parentId === 'number' ? nodes.get(parentId) : undefined;
    if (above && above !== node) (above.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** The same tree without empty `children` arrays (the server sends `[]` on leaves). */
export function pruneEmpty<T extends { children?: T[] | null }>(tree: readonly T[]): T[] {
  return tree.map((n) => {
    const { children, ...rest } = n;
    return (children?.length ? { ...rest, children: pruneEmpty(children) } : rest) as T;
  });
}

/** Every node, depth first. */
export function flatten<T extends { children?: T[] | null }>(tree: readonly T[]): T[] {
  return tree.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

/** Keys of the nodes that have children: what "expand all" opens. */
export function parentKeys<T extends { id: number; children?: T[] | null }>(tree: readonly T[]): number[] {
  return flatten(tree)
    .filter((n) => n.children?.length)
    .map((n) => n.id);
}
