import { entities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import { validateBody } from '../../../../src/components/schema/validation';

// In jsdom (a browser environment): the precompiled validators run without compiling anything.
describe('form bodies checked in the browser', () => {
  it('accepts a good body', () => {
    expect(
      validateBody(
        'vehicle',
        entities.vehicle,
        'create',
        { licence: '沪A12345', vin: 'LSVAM4187C2184847', remark: '' },
        translator('zh-CN'),
      ),
    ).toEqual(new Map());
  });

  it('words each failure as the server does, in the chosen language, one message per form field', () => {
    const body = { licence: '', vin: 'LSVAM4187C218484I', tankCapacity: 2001, status: 'lost' };
    expect(validateBody('vehicle', entities.vehicle, 'create', body, translator('zh-CN'))).toEqual(
      new Map([
        ['licence', '车牌号不能为空'],
        ['vin', '车架号（VIN）应为17位字母或数字，且不含 I、O、Q'],
        ['tankCapacity', '油箱容量（升）不能大于2000'],
        ['status', '车辆状态的取值无效'],
      ]),
    );
    expect(validateBody('driver', entities.driver, 'create', { name: '张三', mobile: '123' }, translator('en-US')).get('mobile')).toBe(
      translator('en-US')('validation.phone'),
    );
  });

  it("treats '' in an optional field as cleared, like the server, and needs required fields only on create", () => {
    expect(validateBody('vehicleBrand', entities.vehicleBrand, 'update', { manufacturer: '', logo: '' }, translator('zh-CN'))).toEqual(
      new Map(),
    );
    expect(validateBody('vehicleBrand', entities.vehicleBrand, 'create', { manufacturer: '' }, translator('zh-CN')).get('name')).toBe(
      '品牌名称不能为空',
    );
  });

  it('puts a nested failure on its top-level field', () => {
    const errors = validateBody(
      'fence',
      entities.fence,
      'create',
      { name: 'f', fenceType: 'polygon', geometry: { points: [[1, 2]] } },
      translator('zh-CN'),
    );
    expect([...errors.keys()]).toEqual(['geometry']);
  });
});
