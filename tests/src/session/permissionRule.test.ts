import { isGranted } from '../../../src/session/permissionRule';

const granted = new Set(['role-add', 'role-edit', 'org-add']);

describe('permission rule (SPEC.md §5)', () => {
  it('grants a single held code only', () => {
    expect(isGranted(granted, 'role-add')).toBe(true);
    expect(isGranted(granted, 'role-remove')).toBe(false);
  });

  it('needs every code of a comma-separated list', () => {
    expect(isGranted(granted, 'role-add,role-edit')).toBe(true);
    expect(isGranted(granted, 'role-add, role-remove')).toBe(false);
  });

  it('needs any one code of an array', () => {
    expect(isGranted(granted, ['role-remove', 'org-add'])).toBe(true);
    expect(isGranted(granted, ['role-remove', 'org-remove'])).toBe(false);
  });

  it('asks no grant for NONE (any signed-in member), alone or beside other codes', () => {
    expect(isGranted(new Set(), 'NONE')).toBe(true);
    expect(isGranted(granted, 'NONE,role-add')).toBe(true);
    expect(isGranted(granted, 'NONE,role-remove')).toBe(false);
    expect(isGranted(new Set(), ['role-remove', 'NONE'])).toBe(true);
  });

  it('grants nothing for an empty requirement', () => {
    expect(isGranted(granted, '')).toBe(false);
    expect(isGranted(granted, [])).toBe(false);
    expect(isGranted(granted, ' , ')).toBe(false);
  });
});
