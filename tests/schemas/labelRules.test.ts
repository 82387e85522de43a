import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import type { ErrorObject } from 'ajv';
import { LABEL_PREVIEW_VALIDATORS } from '../../schemas/generated/labelPreviewValidators';
import { schemaEntities } from '../../schemas/generated/registry';
import { translator } from '../../schemas/kit/catalogue';
import { renderFieldError, toFieldErrors } from '../../schemas/kit/errors';
import { missingLanguages, placeholderProblem, placeholders } from '../../schemas/kit/labelRules';
import { errorSample, previewFormSchema } from '../../schemas/kit/labelPreview';
import { localePatch, unifiedDiff, type LocaleSources } from '../../schemas/kit/localePatch';

describe('label rules', () => {
  it('keeps every placeholder of the default and adds none', () => {
    expect(placeholders('{field} at most {limit}, {field}')).toEqual(['field', 'limit']);
    expect(placeholderProblem('{field} at most {limit}', '{limit} max for {field}')).toBeNull();
    expect(placeholderProblem('{field} at most {limit}', '{field} too long')).toEqual({
      key: 'labels.placeholderMissing',
      params: { placeholder: '{limit}' },
    });
    expect(placeholderProblem('Brand name', 'Make {x}')).toEqual({
      key: 'labels.placeholderUnknown',
      params: { placeholder: '{x}', allowed: '—' },
    });
    expect(missingLanguages(new Set(['zh-CN', 'ja-JP']))).toEqual(['en-US', 'es-ES']);
  });

  it('writes a patch whose hunks name the right lines, and nothing for an unchanged text', () => {
    const before = [
      '{',
      '  "a": "1",',
      '  "b": "2",',
      '  "c": "3",',
      '  "d": "4",',
      '  "e": "5",',
      '  "f": "6",',
      '  "g": "7",',
      '  "h": "8",',
      '  "i": "9"',
      '}',
      '',
    ].join('\n');
    const after = before.replace('"b": "2"', '"b": "two"').replace('"i": "9"', '"i": "9",\n  "j": "10"');
    expect(unifiedDiff('x.json', before, after).split('\n')).toEqual([
      '--- a/x.json',
      '+++ b/x.json',
      // Changes whose context touches share one hunk.
      '@@ -1,11 +1,12 @@',
      ' {',
      '   "a": "1",',
      '-  "b": "2",',
      '+  "b": "two",',
      '   "c": "3",',
      '   "d": "4",',
      '   "e": "5",',
      '   "f": "6",',
      '   "g": "7",',
      '   "h": "8",',
      '-  "i": "9"',
      '+  "i": "9",',
      '+  "j": "10"',
      ' }',
      '',
    ]);
    expect(unifiedDiff('x.json', before, before)).toBe('');
    const sources = { 'zh-CN': { messages: { a: { b: 'x' } }, entities: {} } } as unknown as LocaleSources;
    expect(localePatch(sources, [{ locale: 'zh-CN', key: 'a.b', value: 'x' }])).toBe('');
    expect(localePatch(sources, [{ locale: 'zh-CN', key: 'a.c', value: 'y' }])).toContain('+    "c": "y"');
  });
});

describe('label preview validators (precompiled at npm run gen)', () => {
  it('exist for every schema and word a sample with errors as the server does', () => {
    expect(Object.keys(LABEL_PREVIEW_VALIDATORS).sort()).toEqual(Object.keys(schemaEntities).sort());
    const t = translator('en-US');
    const messagesOf = (entity: keyof typeof schemaEntities) => {
      const form = previewFormSchema(entity, schemaEntities[entity]) as RJSFSchema;
      const localize = (errors?: null | ErrorObject[]) => {
        for (const e of errors ?? []) e.message = renderFieldError(toFieldErrors([e], `entity.${entity}.fields`)[0], t);
      };
      const validator = createPrecompiledValidator(LABEL_PREVIEW_VALIDATORS[entity], form, localize);
      return validator.validateFormData(errorSample(form as Record<string, unknown>), form).errors.map((e) => e.message);
    };
    expect(messagesOf('vehicleBrand')).toEqual([
      'Brand name is required',
      'Country/region must have at most 64 characters',
      'Logo link must start with http(s), mailto or tel',
    ]);
    const vehicle = messagesOf('vehicle');
    expect(vehicle.some((m) => /licence plate/i.test(m ?? ''))).toBe(true);
  });
});
