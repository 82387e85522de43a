import type { ResourceItem } from '../../../services/passport';

/**
 * The authorise dialog's model (SPEC.md §6): the application's whole resource tree, checked =
 * granted to the role, checkable = what the caller may grant (`resource/assignable/{id}`).
 *
 * Checks are strict (a node stands for its own grant) with a downward cascade: checking a menu
 * grants it and everything below it the caller may grant; unchecking takes them away. Parents are
 * never added on the way up: the server shows the menus above any grant by itself, so a parent
 * with only some grants below it is drawn half-checked and not sent. A menu can thus be granted
 * without its actions (a view-only page), which a conducted tree cannot express.
 */
export interface GrantNode {
  key: number;
  title: string;
  code: string;
  kind: ResourceItem['kind'];
  disableCheckbox: boolean;
  children?: GrantNode[];
}

export const idsOf = (tree: readonly ResourceItem[]): number[] => tree.flatMap((r) => [r.id, ...idsOf(r.children ?? [])]);

export function grantTree(
  all: readonly ResourceItem[],
  assignable: ReadonlySet<number>,
  titleOf: (r: ResourceItem) => string,
): GrantNode[] {
  return all.map((r) => ({
    key: r.id,
    title: titleOf(r),
    code: r.code,
    kind: r.kind,
    disableCheckbox: !assignable.has(r.id),
    ...(r.children?.length ? { children: grantTree(r.children, assignable, titleOf) } : {}),
  }));
}

const below = (n: GrantNode): GrantNode[] => [n, ...(n.children ?? []).flatMap(below)];

/** The grants after (un)checking a node: it and every grantable node below it. */
export function toggleGrant(granted: ReadonlySet<number>, node: GrantNode, on: boolean): Set<number> {
  const next = new Set(granted);
  for (const n of below(node)) {
    if (n.disableCheckbox) continue;
    if (on) next.add(n.key);
    else next.delete(n.key);
  }
  return next;
}

/** What the tree draws: granted nodes checked, ungranted ones with a grant below them half-checked. */
export function shownChecks(tree: readonly GrantNode[], granted: ReadonlySet<number>): { checked: number[]; halfChecked: number[] } {
  const checked: number[] = [];
  const halfChecked: number[] = [];
  const walk = (n: GrantNode): boolean => {
    const inside = (n.children ?? []).map(walk).some(Boolean);
    if (granted.has(n.key)) checked.push(n.key);
    else if (inside) halfChecked.push(n.key);
    return inside || granted.has(n.key);
  };
  tree.forEach(walk);
  return { checked, halfChecked };
}

/** The body of `PUT role/{id}/authorize`: exactly the granted ids, parents not added. */
export const grantsToSave = (granted: ReadonlySet<number>): number[] => [...granted].sort((a, b) => a - b);
