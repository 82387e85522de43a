import { entityFiles } from '../../../schemas/generated/registry';
import type { EntitySchema } from '../../../schemas/kit/entity';
import { actionCodes, HAND_WRITTEN_MENU, OBD_WEB_MENU, withSchemaPages, type ResourceFixture } from '../../../server/seed/menu';

const flat = (tree: readonly ResourceFixture[]): ResourceFixture[] => tree.flatMap((r) => [r, ...flat(r.children ?? [])]);

function schema(
  name: string,
  page: EntitySchema['x-entity']['page'],
  permissions: Partial<EntitySchema['x-entity']['permissions']> = {},
): EntitySchema {
  return {
    type: 'object',
    properties: {},
    'x-entity': {
      name,
      table: name,
      orgScoped: true,
      page,
      permissions: { read: 'NONE', create: `${name}-add`, update: `${name}-edit`, remove: `${name}-remove`, ...permissions },
      routes: { query: [`POST /vehicle/${name}/query`] },
    },
  };
}

describe('the seeded obd-web menu', () => {
  it('has an entry for every schema page, holding every action code the schema declares', () => {
    const menus = flat(OBD_WEB_MENU);
    const codes = new Set(actionCodes(OBD_WEB_MENU));
    for (const s of Object.values(entityFiles)) {
      const x = s['x-entity'];
      expect({ entity: x.name, page: !!x.page }).toEqual({ entity: x.name, page: true });
      expect({ entity: x.name, menu: menus.filter((m) => m.kind === 'Menu' && m.url === x.page!.key).length }).toEqual({
        entity: x.name,
        menu: 1,
      });
      for (const code of Object.values(x.permissions))
        if (code !== 'NONE') expect({ entity: x.name, code, seeded: codes.has(code) }).toEqual({ entity: x.name, code, seeded: true });
    }
  });

  it('keeps the hand-written entries, their codes, titles and positions', () => {
    expect(OBD_WEB_MENU).toEqual(HAND_WRITTEN_MENU);
    const brand = flat(OBD_WEB_MENU).find((m) => m.code === 'fleet-brand')!;
    expect(brand).toMatchObject({ name: '车辆品牌', path: '/fleet/brand', url: 'fleet/brand' });
    expect(flat(OBD_WEB_MENU).find((m) => m.url === 'fleet/vehicleList')!.code).toBe('fleet-vehicleList');
  });
});

describe('withSchemaPages', () => {
  const title = (entity: string) => ({ parkingLot: '停车位', warehouse: '仓库', vehicle: '车辆' })[entity] ?? entity;

  it('adds a new page at the end of its area, with its CRUD codes', () => {
    const tree = withSchemaPages(HAND_WRITTEN_MENU, [schema('parkingLot', { key: 'fleet/parkingLot', icon: 'CarOutlined' })], title);
    const fleet = tree.find((m) => m.code === 'fleet')!;
    const entry = fleet.children!.at(-1)!;
    expect(entry).toEqual({
      name: '停车位',
      code: 'fleet-parkingLot',
      kind: 'Menu',
      path: '/fleet/parkingLot',
      url: 'fleet/parkingLot',
      icon: 'CarOutlined',
      children: [
        { name: '新增停车位', code: 'parkingLot-add', kind: 'Action' },
        { name: '编辑停车位', code: 'parkingLot-edit', kind: 'Action' },
        { name: '删除停车位', code: 'parkingLot-remove', kind: 'Action' },
      ],
    });
    // Everything else is as it was, and the input is untouched.
    expect(fleet.children!.slice(0, -1)).toEqual(HAND_WRITTEN_MENU.find((m) => m.code === 'fleet')!.children);
    expect(flat(HAND_WRITTEN_MENU).some((m) => m.code === 'fleet-parkingLot')).toBe(false);
  });

  it('skips NONE and codes the tree already has, puts a page of no known area at the top level, and adds new codes to an existing page', () => {
    const tree = withSchemaPages(
      HAND_WRITTEN_MENU,
      [
        schema('warehouse', { key: 'storage/warehouse' }, { create: 'NONE', remove: 'vehicle-remove', export: 'warehouse-export' }),
        schema(
          'vehicle',
          { key: 'fleet/vehicleList' },
          { create: 'vehicle-add', update: 'vehicle-edit', remove: 'vehicle-remove', renew: 'vehicle-renew' },
        ),
      ],
      title,
    );
    expect(tree.at(-1)).toEqual({
      name: '仓库',
      code: 'storage-warehouse',
      kind: 'Menu',
      path: '/storage/warehouse',
      url: 'storage/warehouse',
      icon: 'AppstoreOutlined',
      children: [
        { name: '编辑仓库', code: 'warehouse-edit', kind: 'Action' },
        { name: '导出仓库', code: 'warehouse-export', kind: 'Action' },
      ],
    });
    const vehicles = flat(tree).find((m) => m.url === 'fleet/vehicleList')!;
    expect(vehicles.children!.at(-1)).toEqual({ name: '续期车辆', code: 'vehicle-renew', kind: 'Action' });
    expect(actionCodes(tree).filter((c) => c === 'vehicle-add')).toHaveLength(1);
  });
});
