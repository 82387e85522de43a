import type { ResourceItem } from '../../server/passport/resources';
import { buildTree, type TreeNode } from '../../server/passport/tree';
import { resourceFields, type Application, type ResourceFixture } from '../../server/seed/menu';

/**
 * An application's seeded resource tree (server/seed/menu.ts) as `GET resource/authorized/{app}`
 * answers it for a member holding every code: rows numbered and sorted the way the seed stores
 * them (server/seed/resources.ts), then nested.
 */
export function resourceTree(application: Application, tree: ResourceFixture[]): Array<TreeNode<ResourceItem>> {
  const rows: ResourceItem[] = [];
  const walk = (items: ResourceFixture[], parentId: number | null) => {
    items.forEach((r, i) => {
      const id = rows.length + 1;
      rows.push({ id, application, ...resourceFields(r), sort: (i + 1) * 10, parentId });
      walk(r.children ?? [], id);
    });
  };
  walk(tree, null);
  return buildTree(rows);
}
