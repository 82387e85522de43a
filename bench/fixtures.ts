import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { bootstrap } from '../server/bootstrap';
import type { Database } from '../server/platform/db/database';
import { seed } from '../server/seed/seed';
import { freshPostgres } from '../tests/helpers/testServer';

/**
 * `rows` synthetic vehicles spread over the given organisations, in unnest batches of 2,000 (one
 * statement per batch whatever its size: a VALUES list caps at 65,535 parameters). Every 100th
 * vehicle is in repair, so `{status: 'repair'}` selects exactly 1 % of them.
 */
export async function fillVehicles(database: Database, orgIds: number[], rows: number): Promise<number> {
  const t0 = Date.now();
  const prefixes = ['沪A', '浙A', '粤B', '京A', '苏E'];
  const BATCH = 2000;
  for (let start = 0; start < rows; start += BATCH) {
    const n = Math.min(BATCH, rows - start);
    const licence: string[] = [];
    const vin: string[] = [];
    const customer: string[] = [];
    const status: string[] = [];
    const org: number[] = [];
    for (let i = 0; i < n; i++) {
      const k = start + i;
      licence.push(`${prefixes[k % 5]}${String(k).padStart(6, '0')}`);
      vin.push(crypto.createHash('md5').update(String(k)).digest('hex').toUpperCase().replace(/[IOQ]/g, '1').slice(0, 17));
      customer.push(`客户${k % 997}`);
      status.push(k % 100 === 0 ? 'repair' : 'normal');
      org.push(orgIds[k % orgIds.length]);
    }
    await sql`INSERT INTO vehicle (licence, vin, customer, status, org_id)
      SELECT * FROM unnest(${licence}::text[], ${vin}::text[], ${customer}::text[], ${status}::text[], ${org}::int[])`.execute(database.db);
  }
  await sql`ANALYZE vehicle`.execute(database.db);
  return Date.now() - t0;
}

export interface VehicleBench {
  database: Database;
  app: FastifyInstance;
  /** Bearer token of the platform administrator. */
  token: string;
  fillMs: number;
}

/**
 * A fresh migrated, demo-seeded database on one backend with `rows` extra vehicles, the real app
 * over it and an administrator token; everything is closed (and the PostgreSQL database dropped) after `fn`.
 */
export async function withVehicleBench<T>(kind: 'pglite' | 'postgres', rows: number, fn: (b: VehicleBench) => Promise<T>): Promise<T> {
  const pg = kind === 'postgres' ? await freshPostgres() : null;
  try {
    const server = await bootstrap({
      database: pg ? { databaseUrl: pg.url } : { dataDir: 'memory://' },
      seed: (db) => seed(db, { demo: true, adminPassword: 'Admin2026x' }),
      jwtSecret: 'bench',
      app: { logLevel: 'silent' },
    });
    const { database, app } = server;
    try {
      const orgs = (await database.db.selectFrom('organisation').select('id').where('code', 'like', '%-%').execute()).map((o) => o.id);
      const fillMs = await fillVehicles(database, orgs, rows);
      const login = await app.inject({ method: 'POST', url: '/api/login', payload: { loginName: 'admin', password: 'Admin2026x' } });
      return await fn({ database, app, token: JSON.parse(login.body).object.token as string, fillMs });
    } finally {
      await server.close();
    }
  } finally {
    await pg?.drop();
  }
}
