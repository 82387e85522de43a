import dayjs from 'dayjs';
import { entities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import { toFormFields, type FieldDescriptor } from '../../../../src/components/schema/formFields';
import { toBody, toFormValues } from '../../../../src/components/schema/formValues';

const zh = translator('zh-CN');
const ja = translator('ja-JP');
const field = (fields: ReturnType<typeof toFormFields>, name: string) => fields.find((f) => f.name === name)!;

describe('schema → form fields', () => {
  const vehicle = toFormFields('vehicle', entities.vehicle, zh);

  it('holds every writable property in x-ui.order, never read-only ones or relation labels', () => {
    expect(vehicle.map((f) => f.name)).toEqual([
      'licence',
      'vin',
      'plateColor',
      'brandId',
      'fuelTypeId',
      'terminalId',
      'driverId',
      'customer',
      'model',
      'color',
      'tankCapacity',
      'initialMileage',
      'serviceStart',
      'serviceEnd',
      'status',
      'remark',
      'orgId',
    ]);
    const config = toFormFields('configParseFile', entities.configParseFile, zh).map((f) => f.name);
    for (const hidden of ['fileName', 'fileSize', 'latestOperator', 'latestOperatedAt', 'id', 'createdAt', 'updatedAt', 'orgName'])
      expect(config).not.toContain(hidden);
  });

  it('labels in the language, marks required fields and offers labelled enum options', () => {
    expect(field(vehicle, 'licence')).toMatchObject({ label: '车牌号', widget: 'text', required: true, maxLength: 16 });
    expect(field(vehicle, 'vin').required).toBe(false);
    expect(field(vehicle, 'status')).toMatchObject({
      widget: 'select',
      defaultValue: 'normal',
      options: [
        { value: 'normal', label: '正常' },
        { value: 'repair', label: '维修中' },
        { value: 'scrapped', label: '已报废' },
      ],
    });
    expect(field(toFormFields('vehicle', entities.vehicle, ja), 'licence').label).toBe(ja('entity.vehicle.fields.licence'));
  });

  it('picks widgets from x-ui.widget, else from type and format', () => {
    expect(field(vehicle, 'brandId')).toMatchObject({ widget: 'select', ref: { entity: 'vehicleBrand', as: 'brandName' } });
    // A terminal serves one vehicle: the form asks for free ones only; other relations offer every row.
    expect(field(vehicle, 'terminalId')).toMatchObject({
      widget: 'select',
      ref: { entity: 'terminal', as: 'terminalNo', unusedBy: 'vehicle.terminalId' },
    });
    expect(field(vehicle, 'brandId').ref?.unusedBy).toBeUndefined();
    expect(field(vehicle, 'orgId')).toMatchObject({ widget: 'treeSelect', ref: { entity: 'organisation', as: 'orgName' } });
    expect(field(vehicle, 'tankCapacity')).toMatchObject({ widget: 'number', integer: false, min: 0, max: 2000 });
    expect(field(vehicle, 'serviceEnd').widget).toBe('date');
    expect(field(vehicle, 'remark').widget).toBe('textarea');
    const brand = toFormFields('vehicleBrand', entities.vehicleBrand, zh);
    expect(field(brand, 'enabled')).toMatchObject({ widget: 'switch', defaultValue: true });
    const fault = toFormFields('expertFault', entities.expertFault, zh);
    expect(field(fault, 'spn')).toMatchObject({ widget: 'number', integer: true, min: 0, max: 524287, required: true });
    const notice = toFormFields('notice', entities.notice, zh);
    expect(field(notice, 'publishAt').widget).toBe('dateTime');
    const fence = toFormFields('fence', entities.fence, zh);
    // The fence's geometry is drawn on the map (the fence dialog's editor), not typed in the form.
    expect(fence.map((f) => f.name)).not.toContain('geometry');
    expect(fence.map((f) => f.name)).not.toContain('status'); // read-only and hideInForm
    const model = toFormFields('vehicleModel', entities.vehicleModel, zh);
    expect(field(model, 'parentModelId')).toMatchObject({ widget: 'treeSelect', ref: { entity: 'vehicleModel' } });
  });

  it('infers password, number and date widgets when the schema names none', () => {
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
        secret: { type: 'string', format: 'login-password' },
        count: { type: 'integer' },
        day: { type: 'string', format: 'date' },
        flag: { type: 'boolean' },
        kind: { type: 'string', enum: ['a', 'b'] },
        shown: { type: 'string', 'x-ui': { hideInForm: true } },
      },
    };
    expect(toFormFields('x', schema, zh).map((f) => [f.name, f.widget])).toEqual([
      ['secret', 'password'],
      ['count', 'number'],
      ['day', 'date'],
      ['flag', 'switch'],
      ['kind', 'select'],
    ]);
  });
});

describe('form values ↔ request bodies', () => {
  const vehicle = toFormFields('vehicle', entities.vehicle, zh);

  it('turns picked dates into the schema formats and JSON text into objects', () => {
    const notice = toFormFields('notice', entities.notice, zh);
    const at = dayjs('2026-11-24T08:30:00Z');
    expect(toBody(notice, { title: 'x', content: 'y', publishAt: at }, 'create')).toEqual({
      title: 'x',
      content: 'y',
      publishAt: '2026-11-24T08:30:00.000Z',
    });
    expect(toBody(vehicle, { licence: '沪A1', serviceEnd: dayjs('2026-12-31') }, 'create')).toEqual({
      licence: '沪A1',
      serviceEnd: '2026-12-31',
    });
    // An object without an editor of its own is typed as JSON text.
    const json: FieldDescriptor[] = [{ name: 'geometry', label: 'geometry', widget: 'json', required: true }];
    expect(toBody(json, { geometry: '{"center":[121.6,31.2],"radius":500}' }, 'create').geometry).toEqual({
      center: [121.6, 31.2],
      radius: 500,
    });
    // Text that is not JSON stays text, for the validator to refuse on the field.
    expect(toBody(json, { geometry: '{oops' }, 'create').geometry).toBe('{oops');
  });

  it('leaves unfilled fields out of a create, and clears optional ones on an edit', () => {
    expect(toBody(vehicle, { licence: '沪A1', vin: undefined, driverId: null }, 'create')).toEqual({ licence: '沪A1' });
    const edit = toBody(vehicle, { licence: undefined, vin: undefined, driverId: null, status: 'repair' }, 'update');
    expect(edit).toMatchObject({ vin: null, driverId: null, status: 'repair' });
    expect(edit).not.toHaveProperty('licence');
  });

  it('fills an edit form from a row: dates as pickers, objects as JSON text, nulls empty', () => {
    const row = { id: 3, licence: '沪A1', serviceEnd: '2026-12-31', driverId: null, brandId: 2, brandName: '解放' };
    const values = toFormValues(vehicle, row);
    expect(dayjs.isDayjs(values.serviceEnd) && (values.serviceEnd as dayjs.Dayjs).format('YYYY-MM-DD')).toBe('2026-12-31');
    expect(values).toMatchObject({ licence: '沪A1', brandId: 2 });
    expect(values).not.toHaveProperty('driverId');
    expect(values).not.toHaveProperty('brandName');
    const json: FieldDescriptor[] = [{ name: 'geometry', label: 'geometry', widget: 'json', required: true }];
    expect(JSON.parse(toFormValues(json, { id: 1, geometry: { points: [[1, 2]] } }).geometry as string)).toEqual({ points: [[1, 2]] });
    // Round trip: what the form shows is what it sends back.
    expect(toBody(vehicle, values, 'update')).toMatchObject({ licence: '沪A1', serviceEnd: '2026-12-31', brandId: 2 });
  });
});
