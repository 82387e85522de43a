import { menuParents } from '../../../../../src/pages/system/menu/parentOptions';
import type { ResourceItem } from '../../../../../src/services/passport';
import { resourceItem } from '../../../components/consoleHarness';

const r = (id: number, kind: 'Menu' | 'Action', children: ResourceItem[] = []) =>
  resourceItem({ id, kind, code: `r${id}`, path: null, children });

describe('parent menus of a resource', () => {
  const tree = [r(1, 'Menu', [r(2, 'Menu', [r(3, 'Action'), r(4, 'Menu')]), r(5, 'Action')])];

  it('offers menus only', () => {
    expect(menuParents(tree, null)).toEqual([
      { value: 1, title: 'r1', children: [{ value: 2, title: 'r2', children: [{ value: 4, title: 'r4' }] }] },
    ]);
  });

  it('disables the resource itself and what lies below it', () => {
    expect(menuParents(tree, 2)).toEqual([
      {
        value: 1,
        title: 'r1',
        children: [{ value: 2, title: 'r2', disabled: true, children: [{ value: 4, title: 'r4', disabled: true }] }],
      },
    ]);
  });
});
