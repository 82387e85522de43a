import { entities, schemaEntities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import { toFormFields } from '../../../../src/components/schema/formFields';
import { toBody, toFormValues } from '../../../../src/components/schema/formValues';
import { treeParent } from '../../../../src/components/schema/tree';
import { nestRows, parentKeys } from '../../../../src/components/system/tree';

/** The capabilities the passport pages brought to every schema page: trees, id arrays and enum arrays. */
const zh = translator('zh-CN');
const field = (fields: ReturnType<typeof toFormFields>, name: string) => fields.find((f) => f.name === name)!;

describe('a schema page as a tree', () => {
  it('nests by the property that refers to the entity itself', () => {
    expect(treeParent(schemaEntities.organisation)).toBe('parentId');
    expect(() => treeParent(entities.vehicle)).toThrow(/cannot be shown as a tree/);
  });

  it('nests rows under the parent the named property holds; a row whose parent is not listed is a root', () => {
    const rows = [
      { id: 1, up: null },
      { id: 2, up: 1 },
      { id: 3, up: 2 },
      { id: 4, up: 99 },
    ];
    const tree = nestRows(rows, 'up');
    expect(tree.map((r) => r.id)).toEqual([1, 4]);
    expect(tree[0].children?.[0].children?.[0].id).toBe(3);
    expect(tree[1].children).toBeUndefined();
    expect(parentKeys(tree)).toEqual([1, 2]);
  });
});

describe('array fields in the form', () => {
  // An entity of its own: id arrays refer to another entity through their items.
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      driverIds: { type: 'array', items: { type: 'integer', 'x-ref': { entity: 'driver', label: 'name', as: 'driverNames' } } },
      channels: { type: 'array', items: { type: 'string', enum: ['console', 'sms'] } },
      extra: { type: 'array', items: { type: 'object' } },
      driverNames: { type: 'array', items: { type: 'string' }, readOnly: true },
    },
    'x-entity': {
      name: 'sample',
      table: 'sample',
      orgScoped: false,
      permissions: { read: 'NONE', create: 'x', update: 'x', remove: 'x' },
      routes: {},
    },
  } as unknown as EntitySchema;

  it('edits an id array with a multi-select over the referenced entity, an enum array with check boxes, other arrays as JSON', () => {
    const fields = toFormFields('member', schema, zh);
    expect(field(fields, 'driverIds')).toMatchObject({ widget: 'multiSelect', ref: { entity: 'driver', as: 'driverNames' } });
    expect(field(fields, 'channels').widget).toBe('checkboxes');
    expect(field(fields, 'extra').widget).toBe('json');
  });

  it('keeps the arrays as they are between the row, the form and the body', () => {
    const fields = toFormFields('member', schema, zh);
    const values = toFormValues(fields, { id: 1, name: 'a', driverIds: [3, 5], channels: ['sms'] });
    expect(values).toMatchObject({ driverIds: [3, 5], channels: ['sms'] });
    expect(toBody(fields, values, 'update')).toMatchObject({ driverIds: [3, 5], channels: ['sms'] });
  });

  it("labels an enum array's options from the entity's catalogue (the account's applications)", () => {
    const fields = toFormFields('member', schemaEntities.member, zh);
    expect(field(fields, 'applications')).toMatchObject({
      widget: 'checkboxes',
      defaultValue: ['obd-web'],
      options: [
        { value: 'obd-web', label: '车管星网页端' },
        { value: 'vehicle-app', label: '车管星 App' },
      ],
    });
  });
});
