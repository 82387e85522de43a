import { grantsToSave, grantTree, idsOf, shownChecks, toggleGrant, type GrantNode } from '../../../../../src/pages/system/role/grantTree';
import type { ResourceItem } from '../../../../../src/services/passport';
import { resourceItem } from '../../../components/consoleHarness';

const item = (id: number, code: string, kind: 'Menu' | 'Action', children: ResourceItem[] = []) =>
  resourceItem({ id, code, kind, children });

// fleet ─┬─ vehicleList ─┬─ vehicle-add
//        │               └─ vehicle-remove   (not the caller's to grant)
//        └─ monitor
// system ── role ── role-add
const all = [
  item(1, 'fleet', 'Menu', [
    item(2, 'fleet-vehicleList', 'Menu', [item(3, 'vehicle-add', 'Action'), item(4, 'vehicle-remove', 'Action')]),
    item(5, 'fleet-monitor', 'Menu'),
  ]),
  item(6, 'system', 'Menu', [item(7, 'system-role', 'Menu', [item(8, 'role-add', 'Action')])]),
];
const assignable = new Set([1, 2, 3, 5, 6, 7, 8]);
const tree = grantTree(all, assignable, (r) => r.name.toUpperCase());
const node = (key: number): GrantNode => {
  const find = (nodes: GrantNode[]): GrantNode | undefined => nodes.map((n) => (n.key === key ? n : find(n.children ?? []))).find(Boolean);
  return find(tree)!;
};

describe('authorise dialog model', () => {
  it('draws the whole tree, titled, with what the caller may not grant disabled', () => {
    expect(idsOf(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(node(2)).toMatchObject({ title: 'FLEET-VEHICLELIST', code: 'fleet-vehicleList', kind: 'Menu', disableCheckbox: false });
    expect(node(4).disableCheckbox).toBe(true);
    expect(node(5).children).toBeUndefined();
  });

  it('checks a menu with everything below it the caller may grant, and unchecks the same way', () => {
    const on = toggleGrant(new Set(), node(1), true);
    expect(grantsToSave(on)).toEqual([1, 2, 3, 5]);
    // A grant the caller cannot make or take stays as it was.
    const held = toggleGrant(new Set([4]), node(2), false);
    expect(grantsToSave(held)).toEqual([4]);
    expect(grantsToSave(toggleGrant(new Set([1, 2, 3, 4, 5]), node(2), false))).toEqual([1, 4, 5]);
  });

  it('never adds parents: a page can be granted alone, and its areas show half-checked', () => {
    const granted = toggleGrant(new Set(), node(7), true);
    expect(grantsToSave(granted)).toEqual([7, 8]);
    expect(shownChecks(tree, granted)).toEqual({ checked: [8, 7], halfChecked: [6] });
    const viewOnly = new Set([5]);
    expect(shownChecks(tree, viewOnly)).toEqual({ checked: [5], halfChecked: [1] });
    expect(shownChecks(tree, new Set())).toEqual({ checked: [], halfChecked: [] });
  });
});
