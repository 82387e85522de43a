import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { statementName } from '../../../../server/platform/db/preparedStatements';
import { loadConfig } from '../../../../server/config';
import { freshPostgres } from '../../../helpers/testServer';

/** The statements prepared on the connection that runs this (one connection: a pool of one). */
async function prepared(database: Database): Promise<string[]> {
  const r = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(database.db);
  return r.rows.map((x) => x.statement);
}

describe('repeated statements prepared once per connection (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof freshPostgres>>;
  beforeAll(async () => {
    pg = await freshPostgres();
  });
  afterAll(async () => {
    await pg.drop();
  });

  it('names a parameterised text from its second run on, and it answers the same', async () => {
    const database = await openDatabase({ databaseUrl: pg.url, poolSize: 1 });
    try {
      const text = (n: number) => sql<{ x: number }>`SELECT ${n}::int + 1 AS x /* prepared-statements test */`;
      const answers: number[] = [];
      for (const n of [1, 2, 3]) answers.push((await text(n).execute(database.db)).rows[0].x);
      expect(answers).toEqual([2, 3, 4]);
      const mine = (await prepared(database)).filter((s) => s.includes('prepared-statements test'));
      expect(mine).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('leaves statements without parameters unnamed, so a script of several commands still runs', async () => {
    const database = await openDatabase({ databaseUrl: pg.url, poolSize: 1 });
    try {
      for (let i = 0; i < 3; i++)
        await database.runScript('CREATE TEMP TABLE IF NOT EXISTS t_prep (a int); INSERT INTO t_prep VALUES (1);', async () => undefined);
      expect((await prepared(database)).filter((s) => s.includes('t_prep'))).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('prepares nothing when turned off (DATABASE_PREPARE=0, for a pooler in transaction mode)', async () => {
    expect(loadConfig({ DATABASE_PREPARE: '0' }).databasePrepare).toBe(false);
    expect(loadConfig({}).databasePrepare).toBe(true);
    expect(() => loadConfig({ DATABASE_PREPARE: 'yes' })).toThrow('DATABASE_PREPARE must be "1" or "0", got "yes"');
    const database = await openDatabase({ databaseUrl: pg.url, poolSize: 1, prepare: false });
    try {
      for (const n of [1, 2, 3]) await sql`SELECT ${n}::int AS x /* unprepared test */`.execute(database.db);
      expect((await prepared(database)).filter((s) => s.includes('unprepared test'))).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('names one text the same on every connection, and a one-off text not at all', () => {
    const text = 'SELECT $1::int /* naming */';
    expect(statementName(text, 1)).toBeUndefined();
    const name = statementName(text, 1);
    expect(name).toMatch(/^fs_\d+$/);
    expect(statementName(text, 1)).toBe(name);
    expect(statementName('SELECT 1 /* no parameters */', 0)).toBeUndefined();
    expect(statementName('SELECT 1 /* no parameters */', 0)).toBeUndefined();
  });
});
