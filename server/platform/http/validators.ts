import type { FastifyInstance } from 'fastify';
import { createAjv } from '../../../schemas/kit/ajv';
import { checkedSerializer } from './answerCheck';

/**
 * Where the tests run the server (jest sets NODE_ENV=test, and the servers they start inherit it):
 * every 2xx answer is checked against its response schema (answerCheck.ts).
 */
export const CHECK_ANSWERS = process.env.NODE_ENV === 'test';

/**
 * Bodies are validated by the shared kit with exactly the console's options. Path and query
 * strings arrive as text, so those parts get an instance that coerces types (same formats).
 */
export function installValidators(app: FastifyInstance, checkAnswers = CHECK_ANSWERS): void {
  const bodies = createAjv();
  const strings = createAjv({ coerceTypes: true });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodies : strings).compile(schema));
  // Response schemas document the API and type the console; they must not silently drop fields
  // from answers (fast-json-stringify would), so answers are written whole.
  const answers = checkAnswers ? createAjv({ strict: false, useDefaults: false }) : null;
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) =>
    answers && /^2/.test(String(httpStatus))
      ? checkedSerializer(answers, schema, `${method} ${url} ${httpStatus}`)
      : (data) => JSON.stringify(data),
  );
}
