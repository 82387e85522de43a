import { parentOptions } from '../../../../../src/pages/system/org/parentOptions';

const tree = [
  {
    value: 1,
    title: '华东物流',
    children: [
      { value: 2, title: '上海车队', children: [{ value: 3, title: '浦东一队' }] },
      { value: 4, title: '杭州车队' },
    ],
  },
];

describe('parent choices of an organisation being edited', () => {
  it('disables the organisation and everything below it', () => {
    const out = parentOptions(tree, { id: 2, parentId: 1, parentName: '华东物流' });
    expect(out[0].disabled).toBeUndefined();
    expect(out[0].children![0]).toMatchObject({ value: 2, disabled: true, children: [{ value: 3, disabled: true }] });
    expect(out[0].children![1].disabled).toBeUndefined();
    // The input tree is left as it was.
    expect(tree[0].children[0]).not.toHaveProperty('disabled');
  });

  it("shows a parent outside the caller's subtree, disabled, so the field still names it", () => {
    const out = parentOptions(tree, { id: 1, parentId: 99, parentName: '车管星平台' });
    expect(out[0]).toEqual({ value: 99, title: '车管星平台', disabled: true });
    expect(out[1]).toMatchObject({ value: 1, disabled: true });
    expect(parentOptions(tree, { id: 1, parentId: null, parentName: null })).toHaveLength(1);
  });
});
