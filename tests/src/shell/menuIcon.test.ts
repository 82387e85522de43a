import { MENUS, type ResourceFixture } from '../../../server/seed/menu';
import { bundledIcons } from '../../../src/shell/menuIcon';

const iconsOf = (tree: readonly ResourceFixture[]): string[] =>
  tree.flatMap((r) => [...(r.icon ? [r.icon] : []), ...iconsOf(r.children ?? [])]);

describe('menu icons', () => {
  it('bundles every icon of the seeded console menu (schema pages included), so the shell never loads the whole icon set for them', () => {
    const bundled = new Set(bundledIcons());
    // The vehicle-app menu names the app's own icons, which the console never draws.
    const seeded = [...new Set(iconsOf(MENUS['obd-web']))];
    expect(seeded.length).toBeGreaterThan(20);
    expect(seeded.filter((name) => !bundled.has(name))).toEqual([]);
  });
});
