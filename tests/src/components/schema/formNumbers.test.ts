import { entities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import { toFormFields } from '../../../../src/components/schema/formFields';
import { toBody } from '../../../../src/components/schema/formValues';
import { validateBody } from '../../../../src/components/schema/validation';

const zh = translator('zh-CN');
const fields = toFormFields('vehicle', entities.vehicle as EntitySchema, zh);
const check = (values: Record<string, unknown>) =>
  validateBody('vehicle', entities.vehicle as EntitySchema, 'create', toBody(fields, values, 'create'), zh);

// In jsdom: what a person types in the vehicle form, checked as the server checks it.
describe('the vehicle form refuses on the field what the server would refuse', () => {
  it('keeps number text that is no number, so it is refused instead of silently dropped', () => {
    expect(toBody(fields, { licence: '沪A12345', tankCapacity: ' 12.5 ', initialMileage: '' }, 'create')).toEqual({
      licence: '沪A12345',
      tankCapacity: 12.5,
    });
    expect(check({ licence: '沪A12345', tankCapacity: 'abc', initialMileage: '1e9999' })).toEqual(
      new Map([
        ['tankCapacity', '油箱容量（升）必须是有效的数字'],
        ['initialMileage', '初始里程（公里）必须是有效的数字'],
      ]),
    );
    expect(check({ licence: '沪A12345', initialMileage: '1e308' })).toEqual(
      new Map([['initialMileage', '初始里程（公里）不能大于10000000']]),
    );
  });

  it('normalises plates and VINs as the server does, and refuses a service end before its start', () => {
    expect(check({ licence: ' 沪a 10137 ', vin: 'lsvam4187c2184847' })).toEqual(new Map());
    expect(check({ licence: '   ' })).toEqual(new Map([['licence', '车牌号不能为空']]));
    expect(check({ licence: 'abc' })).toEqual(new Map([['licence', '车牌号不是有效的车牌号（外国车牌请以 # 开头，如 #ABC-1234）']]));
    expect(check({ licence: '沪A12345', serviceStart: '2026-06-01', serviceEnd: '2026-05-31' })).toEqual(
      new Map([['serviceEnd', '服务到期日期不能早于服务开始日期']]),
    );
  });
});
