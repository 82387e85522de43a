import { blankToNull, changedFields } from '../../../../src/components/system/changes';

describe('what a form sends', () => {
  it('turns blank text into null and trims the rest', () => {
    expect(blankToNull({ a: '  ', b: ' x ', c: 3, d: null, e: false })).toEqual({ a: null, b: 'x', c: 3, d: null, e: false });
  });

  it('sends only what an edit changed: null and blank alike, arrays as sets', () => {
    const before = { name: '李明', mobile: null, roleIds: [3, 1], status: 'enabled', expireDate: '2099-01-01' };
    expect(changedFields(before, { name: '李明', mobile: '', roleIds: [1, 3], status: 'enabled', expireDate: '2099-01-01' })).toEqual({});
    expect(
      changedFields(before, { name: ' 李明二 ', mobile: '13900000000', roleIds: [1], status: 'disabled', expireDate: undefined }),
    ).toEqual({
      name: '李明二',
      mobile: '13900000000',
      roleIds: [1],
      status: 'disabled',
    });
    // Clearing a value is a change to null.
    expect(changedFields({ contact: '王' }, { contact: '' })).toEqual({ contact: null });
    expect(changedFields({ roleIds: [1, 2] }, { roleIds: [1, 2, 2] })).toEqual({ roleIds: [1, 2, 2] });
  });
});
