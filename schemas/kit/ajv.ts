import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { customFormats } from './formats';
import { notBeforeKeyword } from './dateOrder';
import { X_KEYWORDS } from './keywords';

/**
 * The one set of ajv options for both sides (the server's validator compiler and the console's
 * precompiled validators), so a body the form accepts is a body the server accepts.
 * verbose: errors carry parentSchema, which the error mapper reads for x-messages and labels.
 */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  verbose: true,
  useDefaults: true,
  coerceTypes: false,
  removeAdditional: false,
};

/**
 * Registers our formats and annotation keywords on an ajv instance that already has the standard
 * formats (createAjv adds them first; the precompiled console validators are generated with them).
 */
export function extendAjv<T extends Ajv>(ajv: T): T {
  for (const [name, format] of Object.entries(customFormats)) {
    ajv.addFormat(name, typeof format === 'function' ? { type: 'string', validate: format } : format);
  }
  ajv.addVocabulary([...X_KEYWORDS]);
  ajv.addKeyword(notBeforeKeyword);
  return ajv;
}

export function createAjv(overrides: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...overrides });
  addFormats(ajv);
  return extendAjv(ajv);
}
