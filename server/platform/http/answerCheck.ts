import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';

/**
 * Answers checked against their route's response schema, where the tests run the server: a field
 * the schema lacks, or of another type, fails the call with a 500 naming it, so the schemas the
 * console's types come from cannot drift from what the server answers. In production the answer
 * is written as it is (the schemas document it; they never drop a field).
 */

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Schemas under these keywords are walked; the rest are annotations or values. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_ONES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * A copy of a response schema where every object that lists its properties allows no others
 * (unless it says what others may be). Objects inside allOf keep theirs open: each branch sees
 * only its own properties.
 */
export function closedSchema(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closedSchema(s));
  if (!isNode(schema)) return schema;
  const out: Node = { ...schema };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isNode(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, closedSchema(v)]));
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((s) => closedSchema(s, key === 'allOf'));
  }
  for (const key of SCHEMA_ONES) if (isNode(schema[key])) out[key] = closedSchema(schema[key]);
  const lists = isNode(schema.properties) && !('additionalProperties' in schema) && !('patternProperties' in schema);
  if (lists && !inAllOf && !Array.isArray(schema.allOf)) out.additionalProperties = false;
  return out;
}

/** Thrown by the serializer: the error handler answers 500 and logs it. */
export class AnswerDrift extends Error {}

const describe = (errors: ErrorObject[]) =>
  errors
    .map((e) =>
      e.keyword === 'additionalProperties'
        ? `${e.instancePath || '/'} has ${String((e.params as { additionalProperty: string }).additionalProperty)}, which the schema lacks`
        : `${e.instancePath || '/'} ${e.message ?? e.keyword}`,
    )
    .join('; ');

/** A serializer for one route's answer of one status that refuses an answer its schema does not describe. */
export function checkedSerializer(ajv: Ajv, schema: unknown, where: string): (data: unknown) => string {
  const validate = ajv.compile(closedSchema(schema) as object);
  return (data) => {
    const text = JSON.stringify(data);
    // What the client receives (dates as strings, no undefined), not the handler's objects.
    if (text !== undefined && !validate(JSON.parse(text))) {
      const drift = new AnswerDrift(`answer of ${where} differs from its response schema: ${describe(validate.errors ?? [])}`);
      // The tests' servers log nothing: the warning names the drift where a test sees only a 500.
      process.emitWarning(drift.message, 'AnswerDrift');
      throw drift;
    }
    return text;
  };
}
