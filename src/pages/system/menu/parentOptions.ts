import type { ResourceItem } from '../../../services/passport';

export interface ParentNode {
  value: number;
  title: string;
  disabled?: boolean;
  children?: ParentNode[];
}

/**
 * The menus a resource may hang under: Menu items only (an action is a leaf), with the resource
 * itself and everything below it disabled so it cannot become its own ancestor.
 */
export function menuParents(tree: readonly ResourceItem[], selfId: number | null, inside = false): ParentNode[] {
  return tree
    .filter((r) => r.kind === 'Menu')
    .map((r) => {
      const mine = inside || r.id === selfId;
      const children = menuParents(r.children ?? [], selfId, mine);
      return { value: r.id, title: r.name, ...(mine ? { disabled: true } : {}), ...(children.length ? { children } : {}) };
    });
}
