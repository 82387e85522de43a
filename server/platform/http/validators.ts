import type { FastifyInstance } from 'fastify';
import { createAjv } from '../../../schemas/kit/ajv';

/**
 * Bodies are validated by the shared kit with exactly the console's options. Path and query
 * strings arrive as text, so those parts get an instance that coerces types (same formats).
 */
export function installValidators(app: FastifyInstance): void {
  const bodies = createAjv();
  const strings = createAjv({ coerceTypes: true });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : strings).compile(schema));
  // Response schemas document the API; they must not silently drop fields from answers.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
