import type { FromSchema } from 'json-schema-to-ts';

/**
 * The request parts of the generic CRUD routes that are not entity bodies, shared by the server
 * and the Umi mock so both refuse the same ids and option queries.
 */
/** The JSON-schema types the route schemas repeat. */
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
/** The type or null. */
export const nullable = <const T extends 'integer' | 'number' | 'string' | 'boolean'>(type: T) => ({ type: [type, 'null'] }) as const;

export const idParam = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const idParams = { type: 'object', required: ['id'], properties: { id: idParam } } as const;
/** What `idParams` lets through. */
export type IdParams = FromSchema<typeof idParams>;
/**
 * An entity row as the generic get route answers it (the entity's fields and its references'
 * labels), and so every route that answers the row it changed.
 */
export const rowAnswer = { type: 'object', additionalProperties: true, properties: {} } as const;

/** The answer of an action that reports only its success, in the caller's language (SPEC §7). */
export const successAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'message'],
  properties: { success: { type: 'boolean' }, message: { type: 'string' } },
} as const;

/** The answer of a route that answers nothing (a delete, a logout): 204. */
export const noContent = { 204: { type: 'null' } } as const;

export const optionsQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 500 },
    /** `<entity>.<property>` of a relation marked `x-ref.free`: only rows no row of that entity uses through it. */
    unusedBy: { type: 'string', maxLength: 100, pattern: '^[A-Za-z]+\\.[A-Za-z]+$' },
  },
} as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** 'PUT /vehicle/terminal/{id}' → ['PUT', '/api/vehicle/terminal/:id'] */
export function parseRoute(route: string): [HttpMethod, string] {
  const [method, path] = route.split(' ');
  return [method as HttpMethod, '/api' + path.replace(/\{(\w+)\}/g, ':$1')];
}
