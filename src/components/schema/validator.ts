import { customizeValidator } from '@rjsf/validator-ajv8';
import { AJV_OPTIONS, extendAjv } from '../../../schemas/kit/ajv';

/**
 * The rjsf validator for schema forms: the same ajv options, formats and keywords as the server,
 * so a form the console accepts is a body the server accepts.
 */
export const schemaValidator = customizeValidator({ ajvOptionsOverrides: AJV_OPTIONS, extenderFn: extendAjv });
