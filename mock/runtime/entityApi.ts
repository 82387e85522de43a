import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../schemas/kit/ajv';
import { createBodySchema, normaliseBody, queryBodySchema, updateBodySchema, writableProperties, type EntitySchema, type CrudOperation, type Page } from '../../schemas/kit/entity';
import { toFieldErrors } from '../../schemas/kit/errors';
import { idParams, optionsQuery } from '../../server/crud/routeSpec';
import { AppError, duplicate, invalid, notFound, refNotFound } from '../../server/http/errors';
import { filterRows, sortRows, containsText, compareValues, type ListBody, type View } from './listQuery';
import type { MockStore, Row } from './store';

/** Whom a call acts for: the mock's signed-in member, seeing their organisation's subtree. */
export interface MockCaller {
  orgId: number;
  orgPath: string;
}

type Body = Record<string, unknown>;
export type EntityOp = (caller: MockCaller, input: { params: Record<string, string>; query: Record<string, unknown>; body: unknown }) => { status: number; body?: unknown };

const bodies = createAjv();
const strings = createAjv({ coerceTypes: true });
const idCheck = strings.compile(idParams);
const optionsCheck = strings.compile(optionsQuery);

/** Validates like the server (the shared ajv kit, in place: defaults filled, strings coerced), or throws the 400. */
function check<T>(validate: ValidateFunction, data: unknown, labels: string): T {
  if (!validate(data)) throw invalid(toFieldErrors(validate.errors, labels));
  return data as T;
}

/**
 * One entity's CRUD over the mock store with the server's rules (server/crud/write.ts, query.ts):
 * 201 with the row, 200 on update, 204 on delete, 400 for a body the schema refuses or a relation to
 * an unseen row, 404 for an unknown or out-of-scope id, 406 for a broken unique set or a row in use.
 */
export function entityApi(name: string, schema: EntitySchema, entities: Record<string, EntitySchema>, store: MockStore): Record<CrudOperation, EntityOp> {
  const x = schema['x-entity'];
  const labels = `entity.${name}.fields`;
  const writable = writableProperties(schema).map(([n]) => n);
  const refs = Object.entries(schema.properties).flatMap(([prop, p]) => (p['x-ref'] ? [{ prop, ...p['x-ref'] }] : []));
  const defaults = Object.entries(schema.properties).filter(([, p]) => p.default !== undefined);
  const validators = { create: bodies.compile(createBodySchema(schema)), update: bodies.compile(updateBodySchema(schema)), query: bodies.compile(queryBodySchema(schema)) };

  const orgPathOf = (orgId: unknown) => store.org(orgId)?.path;
  const visibleTo = (caller: MockCaller, entity: EntitySchema, row: Row) =>
    !entity['x-entity'].orgScoped || (orgPathOf(row.orgId) ?? '').startsWith(caller.orgPath);
  const visibleRows = (caller: MockCaller) => store.rows(name).filter((r) => visibleTo(caller, schema, r));

  /** A stored row as responses show it: relation labels added, nulls left out. */
  const view = (row: Row): View => {
    const out: View = { id: row.id };
    for (const [k, v] of Object.entries(row)) if (v !== null && v !== undefined) out[k] = v;
    for (const r of refs) {
      const id = row[r.prop];
      const label = r.entity === 'organisation' ? store.org(id)?.name : store.rows(r.entity).find((t) => t.id === id)?.[r.label];
      if (label !== null && label !== undefined) out[r.as] = label;
    }
    return out;
  };

  const find = (caller: MockCaller, params: Record<string, string>): Row => {
    const { id } = check<{ id: number }>(idCheck, { ...params }, labels);
    const row = visibleRows(caller).find((r) => r.id === id);
    if (!row) throw notFound();
    return row;
  };

  const checkRefs = (caller: MockCaller, body: Body) => {
    const errors = refs.flatMap((r) => {
      const v = body[r.prop];
      if (v === null || v === undefined) return [];
      const ok =
        r.entity === 'organisation'
          ? (orgPathOf(v) ?? '').startsWith(caller.orgPath)
          : store.rows(r.entity).some((t) => t.id === v && visibleTo(caller, entities[r.entity], t));
      return ok ? [] : [refNotFound(r.prop, labels)];
    });
    if (errors.length) throw invalid(errors);
  };

  // The database's unique indexes: NULLs never collide.
  const checkUnique = (row: Body, selfId?: number) => {
    for (const set of x.unique ?? []) {
      if (set.some((p) => row[p] === null || row[p] === undefined)) continue;
      if (store.rows(name).some((o) => o.id !== selfId && set.every((p) => o[p] === row[p]))) {
        const fields = set.filter((p) => p !== 'orgId');
        throw duplicate(fields, fields.map((f) => `${labels}.${f}`));
      }
    }
  };

  const writableOf = (body: Body) => Object.fromEntries(writable.filter((p) => body[p] !== undefined).map((p) => [p, body[p]]));
  const normalised = (body: unknown): Body => {
    const b = (body && typeof body === 'object' ? { ...(body as Body) } : {}) as Body;
    normaliseBody(schema, b);
    return b;
  };

  return {
    create(caller, { body }) {
      const input = check<Body>(validators.create, normalised(body), labels);
      if (x.orgScoped && (input.orgId === undefined || input.orgId === null)) input.orgId = caller.orgId;
      checkRefs(caller, input);
      const values = { ...Object.fromEntries(defaults.map(([n, p]) => [n, p.default])), ...writableOf(input) };
      // The database takes the id before its unique indexes refuse the row: a refused create uses one up.
      const id = store.allocateId(name);
      checkUnique(values);
      return { status: 201, body: view(store.insert(name, values, id)) };
    },
    update(caller, { params, body }) {
      const input = check<Body>(validators.update, normalised(body), labels);
      // orgId is NOT NULL: clearing it means "leave it where it is".
      if (x.orgScoped && input.orgId === null) delete input.orgId;
      checkRefs(caller, input);
      const row = find(caller, params);
      const next = { ...row, ...writableOf(input) };
      checkUnique(next, row.id);
      Object.assign(row, next, { updatedAt: new Date().toISOString() });
      return { status: 200, body: view(row) };
    },
    remove(caller, { params }) {
      const row = find(caller, params);
      const users = Object.entries(entities).some(([other, s]) =>
        Object.entries(s.properties).some(([prop, p]) => p['x-ref']?.entity === name && store.rows(other).some((r) => r[prop] === row.id)),
      );
      if (users) throw new AppError(406, 'error.inUse');
      store.remove(name, row.id);
      return { status: 204 };
    },
    get(caller, { params }) {
      return { status: 200, body: view(find(caller, params)) };
    },
    query(caller, { body }) {
      const q = check<ListBody>(validators.query, body && typeof body === 'object' ? { ...(body as Body) } : {}, labels);
      const inSubtree = (r: View, orgId: unknown) => {
        const path = orgPathOf(orgId);
        return !!path && (orgPathOf(r.orgId) ?? '').startsWith(path);
      };
      const rows = sortRows(schema, filterRows(schema, visibleRows(caller).map(view), q.criteria ?? {}, inSubtree), q.order);
      const pageIndex = q.pageIndex ?? 1;
      const pageSize = q.pageSize ?? 20;
      const page: Page<View> = { data: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: rows.length, totalExact: true, pageIndex, pageSize };
      return { status: 200, body: page };
    },
    options(caller, { query }) {
      const { q, limit } = check<{ q?: string; limit: number }>(optionsCheck, { ...query }, labels);
      const label = x.optionLabel ?? 'name';
      const items = visibleRows(caller)
        .map(view)
        .filter((r) => !q || containsText(r[label], q))
        .map((r) => ({ value: r.id, label: r[label] ?? null }))
        .sort((a, b) => (a.label === null ? (b.label === null ? 0 : 1) : b.label === null ? -1 : compareValues(a.label, b.label)) || a.value - b.value);
      return { status: 200, body: items.slice(0, limit) };
    },
  };
}
