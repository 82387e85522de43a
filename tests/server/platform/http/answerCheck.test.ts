import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../../../server/app';
import { closedSchema } from '../../../../server/platform/http/answerCheck';
import { installValidators } from '../../../../server/platform/http/validators';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { migrate } from '../../../../server/platform/db/migrate';
import { ANSWER_SCHEMA_GAPS } from './answerSchemaGaps';

/** Routes answering a file or a download (no JSON to describe). */
const FILE_ROUTE = /\/(export|template|content|evidence|file)$/;

/** Answer schemas are the contract the console's types come from: an answer beyond its schema fails in tests. */
describe('answer check', () => {
  const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } as const;
  const answer = {
    type: 'object',
    properties: { data: { type: 'array', items: item }, total: { type: 'integer' }, extra: { type: 'object', additionalProperties: true } },
  } as const;

  async function appAnswering(checked: boolean, body: unknown): Promise<FastifyInstance> {
    const app = Fastify({ logger: false });
    installValidators(app, checked);
    app.get('/x', { schema: { response: { 200: answer } } }, async () => body);
    await app.ready();
    return app;
  }

  const cases: [string, unknown, number][] = [
    ['an answer its schema describes', { data: [{ id: 1, name: 'a' }], total: 1, extra: { anything: 1 } }, 200],
    ['a field the schema lacks at the top', { data: [], total: 0, more: 1 }, 500],
    ['a field the schema lacks in a list item', { data: [{ id: 1, name: 'a', secret: 'x' }], total: 1 }, 500],
    ['a field of another type', { data: [{ id: '1' }], total: 1 }, 500],
  ];
  it.each(cases)('checked: %s', async (_what, body, status) => {
    const app = await appAnswering(true, body);
    const r = await app.inject({ url: '/x' });
    expect(r.statusCode).toBe(status);
    if (status === 200) expect(r.json()).toEqual(body);
    await app.close();
  });

  it('unchecked (production): answers are written whole, never cut to the schema', async () => {
    const body = { data: [{ id: 1, name: 'a', secret: 'x' }], total: 1, more: 1 };
    const app = await appAnswering(false, body);
    const r = await app.inject({ url: '/x' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual(body);
    await app.close();
  });

  it('closes listed objects only: declared maps, allOf branches and open objects stay open', () => {
    expect(closedSchema(answer)).toEqual({
      ...answer,
      additionalProperties: false,
      properties: { ...answer.properties, data: { type: 'array', items: { ...item, additionalProperties: false } } },
    });
    const all = { allOf: [item, { type: 'object', properties: { more: { type: 'string' } } }] };
    expect(closedSchema(all)).toEqual(all);
  });

  describe('on the whole server', () => {
    let database: Database;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await openDatabase({ dataDir: 'memory://' });
      await migrate(database);
      app = await buildApp({ database, secret: 's', logLevel: 'silent' });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await database.close();
    });

    it('every /api route declares the schema of its success answer, but the files and the listed gaps', () => {
      const without = app.routeCatalogue
        .filter((r) => r.method !== 'HEAD' && !r.answerSchema && !FILE_ROUTE.test(r.url))
        .map((r) => `${r.method} ${r.url}`);
      // A new route without one fails here; a listed route that gains one leaves the list.
      expect(without.sort()).toEqual([...ANSWER_SCHEMA_GAPS].sort());
    });
  });
});
