import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Kysely } from 'kysely';
import { normaliseBody, optionItemSchema, pageResponseSchema, WRITE_OPERATIONS, type Operation } from '../../../schemas/kit/entity';
import { callerOf } from '../auth/authenticate';
import type { Caller } from '../auth/caller';
import type { DB } from '../db/tables';
import { auditRequest } from '../audit';
import { notFound } from '../http/errors';
import type { FieldError } from '../../../schemas/kit/errors';
import { invalid } from '../http/errors';
import type { EntityModel } from './model';
import { getOne, options, queryPage, type QueryBody, type Row } from './query';
import { createRow, deleteRow, updateRow } from './write';
import { idParams, optionsQuery, parseRoute, rowAnswer as item, type IdParams } from './routeSpec';
import { typed } from '../http/typed';
import { unusedByCondition } from './unusedBy';

/**
 * An entity's create or change body: its schema is built from the entity's file at start, so its
 * type is a record of the entity's properties, which the validator checked.
 */
type EntityBody = Record<string, unknown>;
const optionsAnswer = { type: 'array', items: optionItemSchema } as const;

/** What a body check may consult besides the body: the database and who is writing. */
export interface BodyCheckContext {
  db: Kysely<DB>;
  caller: Caller;
}

/**
 * An entity's own rule over a whole body, beyond what its schema can say (a fence's geometry must
 * fit its type, a notification rule's receivers must be its organisation's): the body merged over
 * the stored row on update, each row of an import. Answers the failures, empty if none.
 */
export type BodyCheck = (body: Record<string, unknown>, ctx: BodyCheckContext) => FieldError[] | Promise<FieldError[]>;

/** A row written: before (absent when created) and after (absent when deleted). */
export interface RowChange {
  before?: Row;
  after?: Row;
}

/** Told of the rows a create, update, delete or import wrote, once committed (before answering). */
export type WriteWatch = (changes: RowChange[]) => Promise<void>;

/**
 * The generic CRUD of one entity at the paths its schema declares: bodies validated by the schema,
 * every route guarded by the schema's action code and scoped to the caller's organisation subtree.
 */
export function registerEntityRoutes(
  fastify: FastifyInstance,
  db: Kysely<DB>,
  m: EntityModel,
  check?: BodyCheck,
  watch?: WriteWatch,
): void {
  const app = typed(fastify);
  const x = m.schema['x-entity'];
  const each = (op: Operation, fn: (method: HTTPMethods, url: string) => void) => {
    for (const r of x.routes[op] ?? []) fn(...parseRoute(r));
  };
  const base = <const S extends object>(op: Operation, permission: string, schema: S) => ({
    config: { permission, labels: m.labelPrefix, sharedWrite: !!x.shared && WRITE_OPERATIONS.has(op) },
    schema: { tags: [m.name], summary: `${op} ${m.schema.title ?? m.name}`, ...schema },
  });
  const checked = async (body: Record<string, unknown>, caller: Caller) => {
    const errors = (await check?.(body, { db, caller })) ?? [];
    if (errors.length) throw invalid(errors);
  };
  const normalise = async (req: { body: EntityBody | null }) => {
    if (req.body && typeof req.body === 'object') normaliseBody(m.schema, req.body);
  };

  each('create', (method, url) =>
    app.route<{ Body: EntityBody }>({
      method,
      url,
      ...base('create', x.permissions.create, { body: m.createSchema, response: { 201: item } }),
      preValidation: normalise,
      handler: async (req, reply) => {
        await checked(req.body, callerOf(req));
        const row = await createRow(db, m, callerOf(req), req.body);
        await watch?.([{ after: row }]);
        return reply.status(201).send(row);
      },
    }),
  );
  each('update', (method, url) =>
    app.route<{ Body: EntityBody; Params: IdParams }>({
      method,
      url,
      ...base('update', x.permissions.update, { params: idParams, body: m.updateSchema, response: { 200: item } }),
      preValidation: normalise,
      handler: async (req) => {
        const { id } = req.params;
        const body = req.body;
        let stored: Row | undefined;
        if (check || watch) {
          stored = await getOne(db, m, callerOf(req), id);
          if (!stored) throw notFound();
          await checked({ ...stored, ...body }, callerOf(req));
        }
        const row = await updateRow(db, m, callerOf(req), id, body);
        await watch?.([{ before: stored, after: row }]);
        return row;
      },
    }),
  );
  each('remove', (method, url) =>
    app.route({
      method,
      url,
      ...base('remove', x.permissions.remove, { params: idParams, response: { 204: { type: 'null' } } }),
      handler: async (req, reply) => {
        const { id } = req.params;
        // The log names what was deleted: once the row is gone, its id alone says nothing.
        const before = await getOne(db, m, callerOf(req), id);
        const name = before?.[x.optionLabel ?? 'name'];
        await deleteRow(db, m, callerOf(req), id);
        await watch?.([{ before }]);
        await auditRequest(
          db,
          req,
          callerOf(req),
          'entityDelete',
          `${m.name}:${id}`,
          typeof name === 'string' || typeof name === 'number' ? { name } : undefined,
        );
        return reply.status(204).send(null);
      },
    }),
  );
  each('get', (method, url) =>
    app.route({
      method,
      url,
      ...base('get', x.permissions.read, { params: idParams, response: { 200: item } }),
      handler: async (req) => (await getOne(db, m, callerOf(req), req.params.id)) ?? Promise.reject(notFound()),
    }),
  );
  each('query', (method, url) =>
    app.route<{ Body: QueryBody | null }>({
      method,
      url,
      ...base('query', x.permissions.read, { body: m.querySchema, response: { 200: pageResponseSchema(item) } }),
      handler: async (req) => queryPage(db, m, callerOf(req), req.body ?? {}),
    }),
  );
  each('options', (method, url) =>
    app.route({
      method,
      url,
      ...base('options', x.permissions.read, { querystring: optionsQuery, response: { 200: optionsAnswer } }),
      handler: async (req) => {
        const q = req.query;
        return options(db, m, callerOf(req), q.q || undefined, q.limit, q.unusedBy ? unusedByCondition(m, q.unusedBy) : undefined);
      },
    }),
  );
}
