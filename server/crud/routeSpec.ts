/**
 * The request parts of the generic CRUD routes that are not entity bodies, shared by the server
 * and the Umi mock so both refuse the same ids and option queries.
 */
export const idParam = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const idParams = { type: 'object', required: ['id'], properties: { id: idParam } } as const;

export const optionsQuery = {
  type: 'object',
  properties: { q: { type: 'string', maxLength: 100 }, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 500 } },
};

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** 'PUT /vehicle/terminal/{id}' → ['PUT', '/api/vehicle/terminal/:id'] */
export function parseRoute(route: string): [HttpMethod, string] {
  const [method, path] = route.split(' ');
  return [method as HttpMethod, '/api' + path.replace(/\{(\w+)\}/g, ':$1')];
}
