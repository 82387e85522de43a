import { schemaValidator } from '../../../../src/components/schema/validator';
import { createBodySchema } from '../../../../schemas/kit/entity';
import { entities } from '../../../../schemas/generated/registry';
import type { RJSFSchema } from '@rjsf/utils';

describe('the console form validator', () => {
  const schema = createBodySchema(entities.driver) as RJSFSchema;

  it('uses our formats (phone) and accepts what the server accepts', () => {
    expect(schemaValidator.validateFormData({ name: '张三', mobile: '13800138000' }, schema).errors).toEqual([]);
    const bad = schemaValidator.validateFormData({ name: '张三', mobile: '12345' }, schema).errors;
    expect(bad).toEqual([expect.objectContaining({ name: 'format', property: '.mobile', params: { format: 'phone' } })]);
  });

  it('accepts our x- keywords in strict mode', () => {
    expect(() => schemaValidator.isValid(entities.vehicle as RJSFSchema, {}, entities.vehicle as RJSFSchema)).not.toThrow();
  });
});
