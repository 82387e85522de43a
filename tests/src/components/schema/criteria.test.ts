import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import dayjs from 'dayjs';
import { entities } from '../../../../schemas/generated/registry';
import { queryBodySchema } from '../../../../schemas/kit/entity';
import { toCriteria, toOrder } from '../../../../src/components/schema/criteria';

// The server's query body schema: whatever the mapper builds must pass it. (Compiled here in jsdom,
// where no CSP applies; the browser never compiles it.)
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }));
const accepts = (entity: keyof typeof entities, criteria: Record<string, unknown>) => {
  const validate = ajv.compile(queryBodySchema(entities[entity]));
  const ok = validate({ criteria, pageIndex: 1, pageSize: 20 });
  return ok || validate.errors;
};

describe('search form → criteria', () => {
  it('sends like and eq values, the keyword, and leaves out empty inputs and non-searchable keys', () => {
    const c = toCriteria(entities.vehicle, {
      licence: ' 沪A ',
      vin: '',
      customer: undefined,
      status: 'repair',
      keyword: ' lsv ',
      model: 'x',
      current: 2,
      pageSize: 20,
      _timestamp: 1,
    });
    expect(c).toEqual({ licence: '沪A', status: 'repair', keyword: 'lsv' });
    expect(accepts('vehicle', c)).toBe(true);
  });

  it('types select values by the schema: booleans, numbers, relation ids', () => {
    const brand = toCriteria(entities.vehicleBrand, { enabled: 'false', country: '中国' });
    expect(brand).toEqual({ enabled: false, country: '中国' });
    expect(accepts('vehicleBrand', brand)).toBe(true);
    const fault = toCriteria(entities.expertFault, { spn: '110', fmi: 0, level: 'high' });
    expect(fault).toEqual({ spn: 110, fmi: 0, level: 'high' });
    expect(accepts('expertFault', fault)).toBe(true);
    const vehicle = toCriteria(entities.vehicle, { brandId: 4, orgId: 2 });
    expect(vehicle).toEqual({ brandId: 4, orgId: 2 });
    expect(accepts('vehicle', vehicle)).toBe(true);
  });

  it('sends ranges as [from, to] with null for an open end, dates as days, timestamps as the whole days', () => {
    expect(toCriteria(entities.fuelType, { price: [5, undefined] })).toEqual({ price: [5, null] });
    expect(toCriteria(entities.fuelType, { price: [undefined, undefined] })).toEqual({});
    const vehicle = toCriteria(entities.vehicle, { serviceEnd: ['2026-01-01', dayjs('2026-03-31')] });
    expect(vehicle).toEqual({ serviceEnd: ['2026-01-01', '2026-03-31'] });
    expect(accepts('vehicle', vehicle)).toBe(true);
    const notice = toCriteria(entities.notice, { publishAt: ['2026-11-01', '2026-11-30'] });
    const [from, to] = notice.publishAt as string[];
    expect(new Date(from).getTime()).toBe(dayjs('2026-11-01').startOf('day').valueOf());
    expect(new Date(to).getTime()).toBe(dayjs('2026-11-30').endOf('day').valueOf());
    expect(accepts('notice', notice)).toBe(true);
  });

  it('gives no keyword to an entity without one', () => {
    const schema = structuredClone(entities.vehicleBrand);
    delete schema['x-entity'].keyword;
    expect(toCriteria(schema, { keyword: 'x' })).toEqual({});
  });
});

describe('table sort → order', () => {
  it('maps ascend/descend on a sortable property, ignores the rest', () => {
    expect(toOrder(entities.vehicle, { licence: 'descend' })).toEqual({ property: 'licence', direction: 'DESC' });
    expect(toOrder(entities.vehicle, { customer: 'ascend' })).toEqual({ property: 'customer', direction: 'ASC' });
    expect(toOrder(entities.vehicle, { status: 'ascend' })).toBeUndefined();
    expect(toOrder(entities.vehicle, { licence: null })).toBeUndefined();
    expect(toOrder(entities.vehicle, {})).toBeUndefined();
  });
});
