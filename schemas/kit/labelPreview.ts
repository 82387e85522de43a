import { baseType, createBodySchema, type EntitySchema, type PropertySchema } from './entity';

/**
 * The analyst's live preview (issue 17 §3): an entity's create form as a plain JSON Schema rjsf
 * renders, and a sample that breaks its rules, so edited labels and messages show on a real form.
 * The same function feeds `npm run gen` (which precompiles its validators) and the console (which
 * renders it), so the schema the validators were built from is the one rendered.
 */

/** Schema keys rjsf has no use for (our conventions for tables, relations and columns). */
const DROPPED = ['x-ui', 'x-ref', 'x-column', 'x-normalize'];

export const previewSchemaId = (entity: string) => `labelPreview-${entity}`;

/**
 * The create body of an entity (effective schema) as a form: writable scalar properties only
 * (objects and arrays are JSON text in the real form), with the messages keys (`x-messages`) and the
 * date-order keyword kept, so each failure is worded as the server words it.
 */
export function previewFormSchema(entity: string, schema: EntitySchema): Record<string, unknown> {
  const body = createBodySchema(schema) as { required?: string[]; properties: Record<string, PropertySchema> };
  const properties: Record<string, PropertySchema> = {};
  for (const [name, p] of Object.entries(body.properties)) {
    const type = baseType(p);
    if (!type || type === 'object' || type === 'array') continue;
    const copy: Record<string, unknown> = { ...p };
    for (const k of DROPPED) delete copy[k];
    properties[name] = copy as PropertySchema;
  }
  return {
    $id: previewSchemaId(entity),
    type: 'object',
    required: (body.required ?? []).filter((r) => r in properties),
    properties,
  };
}

/** Formats whose sample is a plain wrong text (dates and passwords are left to the analyst). */
const TEXT_FORMATS = new Set(['phone', 'contact-phone', 'licence-plate', 'vin', 'external-link', 'plain-code', 'email', 'uri']);

/**
 * A sample with errors: required fields left empty, formatted texts wrong, short texts one
 * character too long and bounded numbers one above their maximum.
 */
export function errorSample(form: Record<string, unknown>): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  const props = form.properties as Record<string, PropertySchema>;
  const required = new Set((form.required as string[] | undefined) ?? []);
  for (const [name, p] of Object.entries(props)) {
    if (required.has(name)) continue;
    const type = baseType(p);
    if (type === 'string' && p.format && TEXT_FORMATS.has(p.format)) sample[name] = 'x?';
    else if (type === 'string' && !p.format && !p.enum && p.maxLength !== undefined && p.maxLength <= 64)
      sample[name] = 'x'.repeat(p.maxLength + 1);
    else if ((type === 'integer' || type === 'number') && p.maximum !== undefined) sample[name] = p.maximum + 1;
  }
  return sample;
}
