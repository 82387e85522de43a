import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';

/**
 * The app whose routes take their types from their schemas (written `as const`): a handler's
 * `req.body`, `req.params` and `req.query` are what the validator let through, and what it
 * returns must fit the response schema. No route casts its request parts.
 */
export const typed = (app: FastifyInstance) => app.withTypeProvider<JsonSchemaToTsProvider>();

export type TypedApp = ReturnType<typeof typed>;
