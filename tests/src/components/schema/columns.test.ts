import { entities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import { toColumns, valueEnumOf, type SearchWidgets } from '../../../../src/components/schema/columns';

const zh = translator('zh-CN');
const en = translator('en-US');
const widgets: SearchWidgets = { ref: (prop, ref) => `ref:${prop}:${ref.entity}`, org: () => 'org' };

const tableOf = (cols: ReturnType<typeof toColumns>) => cols.filter((c) => !c.hideInTable);
const searchOf = (cols: ReturnType<typeof toColumns>) => cols.filter((c) => c.hideInTable);
const byIndex = (cols: ReturnType<typeof toColumns>, name: string) => cols.find((c) => c.dataIndex === name)!;

describe('schema → ProTable columns', () => {
  const vehicle = toColumns('vehicle', entities.vehicle, zh, widgets);

  it('shows the non-hidden properties in x-ui.order, titled by the entity labels of the language', () => {
    expect(tableOf(vehicle).map((c) => c.dataIndex)).toEqual([
      'licence',
      'vin',
      'brandId',
      'terminalId',
      'driverId',
      'customer',
      'serviceStart',
      'serviceEnd',
      'status',
      'orgId',
      'updatedAt',
    ]);
    expect(byIndex(vehicle, 'licence').title).toBe('车牌号');
    expect(byIndex(toColumns('vehicle', entities.vehicle, en, widgets), 'licence').title).toBe('Licence plate');
    // Standard fields get the shared labels.
    expect(byIndex(vehicle, 'updatedAt').title).toBe('更新时间');
  });

  it('leaves out x-ui.column:false properties and relation labels, never showing ids', () => {
    const names = tableOf(vehicle).map((c) => c.dataIndex);
    for (const hidden of ['plateColor', 'model', 'remark', 'id', 'createdAt', 'brandName', 'orgName']) expect(names).not.toContain(hidden);
  });

  it('sorts where x-ui.sort, and only there', () => {
    expect(byIndex(tableOf(vehicle), 'licence').sorter).toBe(true);
    expect(byIndex(tableOf(vehicle), 'customer').sorter).toBe(true);
    expect(byIndex(tableOf(vehicle), 'status').sorter).toBe(false);
    expect(byIndex(tableOf(vehicle), 'terminalId').sorter).toBe(false);
  });

  it('labels enum values and booleans, and types dates', () => {
    expect(byIndex(tableOf(vehicle), 'status')).toMatchObject({
      valueType: 'select',
      valueEnum: { normal: { text: '正常' }, repair: { text: '维修中' }, scrapped: { text: '已报废' } },
    });
    expect(byIndex(tableOf(vehicle), 'serviceEnd').valueType).toBe('date');
    expect(byIndex(tableOf(vehicle), 'updatedAt').valueType).toBe('dateTime');
    expect(valueEnumOf('vehicleBrand', 'enabled', entities.vehicleBrand.properties.enabled, en)).toEqual({
      true: { text: 'Yes' },
      false: { text: 'No' },
    });
  });

  it('shows a relation (and the organisation of an org-scoped row) by its read-only label', () => {
    const render = (name: string, row: Record<string, unknown>) =>
      (byIndex(tableOf(vehicle), name).render as (d: unknown, r: unknown) => unknown)(null, row);
    expect(render('brandId', { id: 1, brandId: 7, brandName: '解放' })).toBe('解放');
    expect(render('orgId', { id: 1, orgId: 3, orgName: '华东分公司' })).toBe('华东分公司');
    expect(render('driverId', { id: 1, driverId: null, driverName: null })).toBe('-');
  });

  it('shows numbers as stored (no thousands separators on codes)', () => {
    const fault = toColumns('expertFault', entities.expertFault, zh, widgets);
    expect((byIndex(tableOf(fault), 'spn').render as (d: unknown, r: unknown) => unknown)(null, { id: 1, spn: 524287 })).toBe('524287');
  });

  it('builds the search form from x-ui.search: like/eq inputs, enum selects, date and number ranges, lazy relation selects', () => {
    const search = searchOf(vehicle);
    expect(search.map((c) => c.dataIndex)).toEqual(['licence', 'vin', 'brandId', 'customer', 'serviceEnd', 'status', 'orgId']);
    expect(byIndex(search, 'licence').valueType).toBe('text');
    expect(byIndex(search, 'serviceEnd').valueType).toBe('dateRange');
    expect(byIndex(search, 'status')).toMatchObject({ valueType: 'select', valueEnum: { normal: { text: '正常' } } });
    const renderItem = (name: string) => (byIndex(search, name).renderFormItem as () => unknown)();
    expect(renderItem('brandId')).toBe('ref:brandId:vehicleBrand');
    expect(renderItem('orgId')).toBe('org');
    // Search inputs never show in the table; table columns never show in the search form.
    expect(search.every((c) => c.search !== false)).toBe(true);
    expect(tableOf(vehicle).every((c) => c.search === false)).toBe(true);
    // The search form names its fields by `name` (the property, as criteria want it); ProTable finds
    // a table column's sort order by its key (the property).
    expect(search.map((c) => (c as { name?: string }).name)).toEqual(search.map((c) => c.dataIndex));
    expect(tableOf(vehicle).map((c) => c.key)).toEqual(tableOf(vehicle).map((c) => c.dataIndex));
    expect(new Set([...tableOf(vehicle), ...search].map((c) => c.key)).size).toBe(tableOf(vehicle).length + search.length);
    const fuel = searchOf(toColumns('fuelType', entities.fuelType, zh, widgets));
    expect(byIndex(fuel, 'price').valueType).toBe('digitRange');
    expect(byIndex(fuel, 'enabled')).toMatchObject({ valueType: 'select', valueEnum: { true: { text: '是' }, false: { text: '否' } } });
    const fault = searchOf(toColumns('expertFault', entities.expertFault, zh, widgets));
    expect(byIndex(fault, 'spn').valueType).toBe('digit');
  });

  it('searches a property hidden in the table when the schema says so', () => {
    const schema: EntitySchema = {
      type: 'object',
      'x-entity': {
        name: 'x',
        table: 'x',
        orgScoped: false,
        permissions: { read: 'NONE', create: 'NONE', update: 'NONE', remove: 'NONE' },
        routes: {},
      },
      properties: {
        b: { type: 'string', 'x-ui': { column: false, search: 'eq', order: 2 } },
        a: { type: 'string', 'x-ui': { order: 1 } },
        c: { type: 'string', readOnly: true },
      },
    };
    const cols = toColumns('x', schema, zh, widgets);
    expect(tableOf(cols).map((c) => c.dataIndex)).toEqual(['a', 'c']);
    expect(searchOf(cols).map((c) => c.dataIndex)).toEqual(['b']);
  });
});
