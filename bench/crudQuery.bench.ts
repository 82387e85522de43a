import crypto from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { openDatabase, type Database } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { seed } from '../server/seed/seed';
import { freshPostgres } from '../tests/helpers/testServer';
import { summarise, type BenchResult } from './lib';

/**
 * The generic query (search + sort + page) over 100,000 vehicles, through the real app (auth,
 * validation, SQL, serialisation) on PGlite and on PostgreSQL. DESIGN.md budget: p95 < 50 ms.
 */
const ROWS = Number(process.env.BENCH_ROWS || 100_000);
const RUNS = Number(process.env.BENCH_RUNS || 200);
const BATCH = 2000;

async function fill(database: Database, orgIds: number[]) {
  const prefixes = ['沪A', '浙A', '粤B', '京A', '苏E'];
  for (let start = 0; start < ROWS; start += BATCH) {
    const n = Math.min(BATCH, ROWS - start);
    const licence: string[] = [];
    const vin: string[] = [];
    const customer: string[] = [];
    const org: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = start + i;
      licence.push(`${prefixes[k % 5]}${String(k).padStart(6, '0')}`);
      vin.push(crypto.createHash('md5').update(String(k)).digest('hex').toUpperCase().replace(/[IOQ]/g, '1').slice(0, 17));
      customer.push(`客户${k % 997}`);
      org.push(orgIds[k % orgIds.length]);
    }
    // unnest keeps one statement per batch, whatever its size (a VALUES list caps at 65,535 parameters).
    await sql`INSERT INTO vehicle (licence, vin, customer, org_id)
      SELECT * FROM unnest(${licence}::text[], ${vin}::text[], ${customer}::text[], ${org}::int[])`.execute(database.db);
  }
  await sql`ANALYZE vehicle`.execute(database.db);
}

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const pg = kind === 'postgres' ? await freshPostgres() : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url } : { dataDir: 'memory://' });
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: 'Admin2026x' });
    const orgs = (await database.db.selectFrom('organisation').select('id').where('code', 'like', '%-%').execute()).map((o) => o.id);
    const t0 = Date.now();
    await fill(database, orgs);
    const fillMs = Date.now() - t0;
    const app = await buildApp({ database, secret: 'bench', logLevel: 'silent' });
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { loginName: 'admin', password: 'Admin2026x' } });
    const token = JSON.parse(login.body).object.token as string;
    // Each shape names what it exercises, so a slow figure points at its cause.
    const bodies: Array<[string, (i: number) => Record<string, unknown>]> = [
      ['keyword', (i: number) => ({ criteria: { keyword: `A0${(i % 90) + 10}` }, order: { property: 'licence', direction: 'ASC' }, pageIndex: 1 + (i % 5), pageSize: 20 })],
      ['likeShort', (i: number) => ({ criteria: { licence: `${i % 1000}` }, order: { property: 'updatedAt', direction: 'DESC' }, pageIndex: 1, pageSize: 20 })],
      ['likeCjk', (i: number) => ({ criteria: { customer: `客户${i % 997}` }, order: { property: 'licence', direction: 'DESC' }, pageIndex: 2, pageSize: 50 })],
      ['deepPage', () => ({ order: { property: 'licence', direction: 'ASC' }, pageIndex: 100, pageSize: 20 })],
    ];
    const call = (i: number) =>
      app.inject({ method: 'POST', url: '/api/vehicle/vehicle/query', headers: { authorization: `Bearer ${token}` }, payload: bodies[i % bodies.length][1](i) });
    for (let i = 0; i < 20; i++) await call(i); // warm-up
    const samples: number[] = [];
    const byShape = new Map<string, number[]>(bodies.map(([name]) => [name, []]));
    for (let i = 0; i < RUNS; i++) {
      const s = process.hrtime.bigint();
      const r = await call(i);
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      samples.push(ms);
      byShape.get(bodies[i % bodies.length][0])!.push(ms);
      if (r.statusCode !== 200) throw new Error(r.body);
    }
    await app.close();
    const shapes = Object.fromEntries([...byShape].map(([name, ms]) => [name, summarise(ms)]));
    return { name: `crud.query.vehicle.${kind}`, rows: ROWS, fillMs, ...summarise(samples), budgetP95Ms: 50, shapes };
  } finally {
    await database.close();
    await pg?.drop();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [await runOn('pglite'), await runOn('postgres')];
}

if (require.main === module) {
  run().then((rs) => rs.forEach((r) => console.log(JSON.stringify(r))));
}
