import { request } from '@umijs/max';
import { NONE } from '../../../schemas/kit/authority';
import { permissionOf, type EntitySchema, type Operation, type Page } from '../../../schemas/kit/entity';
import type { CallOptions } from '../../services/http/headers';
import type { ListOrder, Row } from './pageContract';

export interface Option {
  value: number;
  label: string;
}

export interface OrgNode {
  value: number;
  label: string;
  disabled?: boolean;
  children?: OrgNode[];
}

/** The first route the schema declares for an operation, as method and path (under the API base), `{id}` filled. */
export function routeOf(schema: EntitySchema, op: Operation, id?: number): { method: string; url: string } | undefined {
  const route = schema['x-entity'].routes[op]?.[0];
  if (!route) return undefined;
  const [method, path] = route.split(' ');
  return { method, url: path.replace(/\{id\}/g, String(id ?? '')) };
}

export const hasRoute = (schema: EntitySchema, op: Operation) => !!schema['x-entity'].routes[op]?.length;

type Call = CallOptions & { data?: unknown; params?: Record<string, unknown> };

/** One call of an entity's route, sending the action code the schema guards it with as the authority. */
export function callEntity<T>(schema: EntitySchema, op: Operation, opts: Call & { id?: number } = {}): Promise<T> {
  const r = routeOf(schema, op, opts.id);
  if (!r) return Promise.reject(new Error(`${schema['x-entity'].name} has no ${op} route`));
  const { id: _id, ...rest } = opts;
  return request<T>(r.url, { method: r.method, authority: permissionOf(schema['x-entity'], op), ...rest });
}

export interface ListQuery {
  criteria: Record<string, unknown>;
  order?: ListOrder;
  pageIndex: number;
  pageSize: number;
}

export const queryPage = (schema: EntitySchema, q: ListQuery) => callEntity<Page<Row>>(schema, 'query', { data: q });

/** The options of a referenced entity, filtered by what the person typed (`optionsQuery`: q, limit). */
export const loadOptions = (schema: EntitySchema, q: string) =>
  callEntity<Option[]>(schema, 'options', { params: { ...(q ? { q } : {}), limit: 50 } });

/** The caller's organisation subtree (server/passport/orgRoutes.ts). */
export const loadOrgTree = () => request<OrgNode[]>('/vehicle/org/tree/options', { method: 'GET', authority: NONE });
