import { lineageOf, type OrgTreeNode } from '../../../../src/components/system/useOrgOptions';

/** The organisations whose roles an account may hold: its own and those above it (issue 18 #6b). */
describe('lineageOf', () => {
  const tree: OrgTreeNode[] = [
    {
      value: 1,
      title: 'FS',
      children: [
        {
          value: 2,
          title: 'HD',
          children: [
            { value: 3, title: 'HD-SH' },
            { value: 4, title: 'HD-HZ' },
          ],
        },
        { value: 5, title: 'HN', children: [{ value: 6, title: 'HN-SZ' }] },
      ],
    },
  ];

  it('lists the path from the top down to the organisation, never a sibling branch', () => {
    expect(lineageOf(tree, 3)).toEqual([1, 2, 3]);
    expect(lineageOf(tree, 6)).toEqual([1, 5, 6]);
    expect(lineageOf(tree, 1)).toEqual([1]);
  });

  it('is empty for an organisation outside the tree', () => {
    expect(lineageOf(tree, 99)).toEqual([]);
    expect(lineageOf([], 1)).toEqual([]);
  });
});
