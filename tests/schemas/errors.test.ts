import { createAjv } from '../../schemas/kit/ajv';
import { translator } from '../../schemas/kit/catalogue';
import { createBodySchema, queryBodySchema } from '../../schemas/kit/entity';
import { renderFieldError, toFieldErrors } from '../../schemas/kit/errors';
import { loginBodySchema } from '../../schemas/kit/loginSchema';
import { entities } from '../../schemas/generated/registry';

const ajv = createAjv();

function messages(schema: object, body: unknown, prefix: string, lang: 'zh-CN' | 'en-US' = 'zh-CN') {
  const validate = ajv.compile(schema);
  expect(validate(body)).toBe(false);
  return toFieldErrors(validate.errors, prefix).map((fe) => [fe.field, renderFieldError(fe, translator(lang))]);
}

describe('validation errors → localised field messages', () => {
  it('uses the per-field message keys of SPEC.md for the login password', () => {
    expect(messages(loginBodySchema, { loginName: 'a' }, 'login.fields')).toEqual([['password', '登录密码不能为空']]);
    expect(messages(loginBodySchema, { loginName: 'a', password: '' }, 'login.fields')).toEqual([['password', '登录密码不能为空']]);
    expect(messages(loginBodySchema, { loginName: 'a', password: 'a b' }, 'login.fields')).toEqual([
      ['password', '密码为6-20位字母、数字、下划线或符号'],
    ]);
  });

  it('names the phone format error as SPEC.md says', () => {
    const m = messages(createBodySchema(entities.driver), { name: '张三', mobile: '12345' }, 'entity.driver.fields');
    expect(m).toEqual([['mobile', '手机号格式不正确']]);
  });

  it('reports one message per field even when several rules fail (anyOf criteria)', () => {
    const m = messages(queryBodySchema(entities.vehicle), { criteria: { licence: 'x'.repeat(101) } }, 'entity.vehicle.fields', 'en-US');
    expect(m).toEqual([['criteria.licence', 'Licence plate must have at most 100 characters']]);
  });

  it('accepts a valid body and the same schema on a fresh instance (no $id clash)', () => {
    const v = createAjv().compile(createBodySchema(entities.vehicle));
    expect(v({ licence: '沪A12345', vin: 'LFW0000000000000A', serviceEnd: '2027-01-01', brandId: null })).toBe(true);
    expect(v({ licence: '沪A12345', vin: 'lowercase-is-bad' })).toBe(false);
  });
});
