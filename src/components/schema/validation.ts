import type { SchemaName } from '../../../schemas/generated/registry';
import { bodyValidators } from '../../../schemas/generated/validators';
import { normaliseBody, type EntitySchema } from '../../../schemas/kit/entity';
import { renderFieldError, toFieldErrors } from '../../../schemas/kit/errors';
import type { Translate } from '../../../schemas/kit/i18n';
import { fieldsPrefix } from './labels';

/**
 * Checks a create or update body in the browser with the precompiled validator of the server's own
 * schema and options (schemas/generated/validators.ts), after the server's own '' → null step, and
 * words each failure as the server would (`toFieldErrors` + the shared translator).
 * Answers form field → message; a nested failure (`geometry.center`) lands on its top-level field.
 */
export function validateBody(
  entity: SchemaName,
  schema: EntitySchema,
  kind: 'create' | 'update',
  body: Readonly<Record<string, unknown>>,
  t: Translate,
): Map<string, string> {
  const copy = structuredClone(body) as Record<string, unknown>;
  normaliseBody(schema, copy);
  const validate = bodyValidators[entity][kind];
  const out = new Map<string, string>();
  if (validate(copy)) return out;
  for (const fe of toFieldErrors(validate.errors, fieldsPrefix(entity))) {
    const field = fe.field.split('.')[0];
    if (!out.has(field)) out.set(field, renderFieldError(fe, t));
  }
  return out;
}
