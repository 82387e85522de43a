import { flatten, nestRows, parentKeys, pruneEmpty } from '../../../../src/components/system/tree';

const rows = [
  { id: 1, parentId: null, name: 'FS' },
  { id: 2, parentId: 1, name: 'HD' },
  { id: 3, parentId: 2, name: 'HD-SH' },
  { id: 4, parentId: 2, name: 'HD-HZ' },
  { id: 5, parentId: 1, name: 'HN' },
];

describe('tree helpers', () => {
  it('nests rows by parent in their order, leaves without children', () => {
    expect(nestRows(rows)).toEqual([
      {
        id: 1,
        parentId: null,
        name: 'FS',
        children: [
          {
            id: 2,
            parentId: 1,
            name: 'HD',
            children: [
              { id: 3, parentId: 2, name: 'HD-SH' },
              { id: 4, parentId: 2, name: 'HD-HZ' },
            ],
          },
          { id: 5, parentId: 1, name: 'HN' },
        ],
      },
    ]);
  });

  it('makes a row whose parent is not among the rows a root (own organisation, search hits)', () => {
    const hits = rows.filter((r) => r.id === 3 || r.id === 5);
    expect(nestRows(hits).map((n) => n.name)).toEqual(['HD-SH', 'HN']);
    expect(nestRows([{ id: 7, parentId: 7 }])).toEqual([{ id: 7, parentId: 7 }]);
    expect(nestRows([])).toEqual([]);
  });

  it('drops empty children arrays and lists the keys that expand', () => {
    const tree = pruneEmpty([
      {
        id: 1,
        children: [
          { id: 2, children: [] },
          { id: 3, children: [{ id: 4, children: [] }] },
        ],
      },
    ]);
    expect(tree).toEqual([{ id: 1, children: [{ id: 2 }, { id: 3, children: [{ id: 4 }] }] }]);
    expect(parentKeys(tree)).toEqual([1, 3]);
    expect(flatten(tree).map((n) => n.id)).toEqual([1, 2, 3, 4]);
  });
});
