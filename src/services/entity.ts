import { NONE } from '../../schemas/kit/authority';
import { permissionOf, type EntitySchema, type Operation, type OptionItem, type Page } from '../../schemas/kit/entity';
import { call, type Call } from './http/call';

/** A row of an entity's list, as its query answers it. */
export type Row = Record<string, unknown> & { id: number };

export interface ListOrder {
  property: string;
  direction: 'ASC' | 'DESC';
}

/** One choice of a select (`…/options`): the label may be null where it is an optional field. */
export type Option = OptionItem;

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

export type EntityCall = Omit<Call, 'method'>;

/** One call of an entity's route, sending the action code the schema guards it with as the authority. */
export function callEntity<T>(schema: EntitySchema, op: Operation, opts: EntityCall & { id?: number } = {}): Promise<T> {
  const r = routeOf(schema, op, opts.id);
  if (!r) return Promise.reject(new Error(`${schema['x-entity'].name} has no ${op} route`));
  const { id: _id, ...rest } = opts;
  return call<T>(r.url, { method: r.method, authority: permissionOf(schema['x-entity'], op), ...rest });
}

export interface ListQuery {
  criteria: Record<string, unknown>;
  order?: ListOrder;
  pageIndex: number;
  pageSize: number;
}

export const queryPage = (schema: EntitySchema, q: ListQuery, extra: EntityCall = {}) =>
  callEntity<Page<Row>>(schema, 'query', { ...extra, data: q });

/**
 * A page's calls of its entity: its extra options (an application header) on each, and the action
 * code of each operation as the page maps it (an application's roles have their own codes).
 */
export function entityCaller(schema: EntitySchema, calls: { options?: EntityCall; code?: (code: string) => string } = {}) {
  const codeOf = (op: Operation) => (calls.code ?? ((c: string) => c))(permissionOf(schema['x-entity'], op));
  const optionsOf = (op: Operation): EntityCall => ({ ...calls.options, authority: codeOf(op) });
  return {
    codeOf,
    optionsOf,
    call: <T>(op: Operation, opts: EntityCall & { id?: number } = {}) => callEntity<T>(schema, op, { ...optionsOf(op), ...opts }),
  };
}
export type EntityCaller = ReturnType<typeof entityCaller>;

/** The options of a referenced entity, filtered by what the person typed (`optionsQuery`: q, limit, unusedBy). */
export const loadOptions = (schema: EntitySchema, q: string, unusedBy?: string) =>
  callEntity<Option[]>(schema, 'options', { params: { ...(q ? { q } : {}), limit: 50, ...(unusedBy ? { unusedBy } : {}) } });

/** The caller's organisation subtree (server/passport/orgRoutes.ts). */
export const loadOrgTree = () => call<OrgNode[]>('/vehicle/org/tree/options', { method: 'GET', authority: NONE });
