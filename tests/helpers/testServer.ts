import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { bootstrap } from '../../server/bootstrap';
import { hashPassword } from '../../server/platform/auth/password';
import type { MemberType } from '../../server/platform/auth/caller';
import type { Database } from '../../server/platform/db/database';
import type { AppOptions } from '../../server/app';
import type { ForwardingService } from '../../server/forwarding';
import { pgliteTemplate, postgresTemplate, seedDemo } from './seededTemplate';

export type Backend = 'pglite' | 'postgres';

/** Both backends every database test runs on. PostgreSQL listens at 127.0.0.1:5432 on our machines. */
export const BACKENDS: Backend[] = ['pglite', 'postgres'];
export const POSTGRES_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export const ADMIN_PASSWORD = 'Admin2026x';
export const MEMBER_PASSWORD = 'Member2026x';
/** What the test servers' demo seed is given, their templates' and their own alike. */
const SEEDED = { adminPassword: ADMIN_PASSWORD };

/**
 * A fresh PostgreSQL database for one test file, dropped again by the returned function: empty, or
 * with `seeded` a copy of the migrated, demo-seeded template (seededTemplate.ts).
 */
export async function freshPostgres(opts: { seeded?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fs_test_${crypto.randomBytes(6).toString('hex')}`;
  const template = opts.seeded ? await postgresTemplate(POSTGRES_URL, SEEDED) : null;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = '/' + name;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  /** With `forwarding`: the links the server runs. */
  forwarding: ForwardingService | null;
  close(): Promise<void>;
  /** Logs in and returns the bearer token. */
  login(loginName: string, password: string): Promise<string>;
  /**
   * Adds a member (in the organisation with this code) holding a role with these action codes
   * (default: every obd-web code for administrators, none for others) and returns its token.
   */
  memberToken(orgCode: string, memberType: MemberType, codes?: string[]): Promise<string>;
  /** Like memberToken, also returning the member's id and login name. */
  addMember(orgCode: string, memberType: MemberType, codes?: string[]): Promise<{ id: number; loginName: string; token: string }>;
  orgId(code: string): Promise<number>;
  call(
    token: string | null,
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    lang?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape
}

/**
 * The real app on a real, migrated, demo-seeded database, driven through Fastify's inject. With
 * `telematics`, its routes too, gateway off, as `npm start` with JT808_PORT=0 (and the mock) serve them.
 */
export async function startTestServer(
  backend: Backend,
  opts: { telematics?: boolean; forwarding?: boolean } & Partial<AppOptions> = {},
): Promise<TestServer> {
  const { telematics, forwarding, ...appOptions } = opts;
  const pgdb = backend === 'postgres' ? await freshPostgres({ seeded: true }) : null;
  const server = await bootstrap({
    // A copy of the seeded template; bootstrap's migrate and seed then find nothing to do.
    database: pgdb ? { databaseUrl: pgdb.url, poolSize: 4 } : { dataDir: 'memory://', loadDataDir: await pgliteTemplate(SEEDED) },
    seed: (db) => seedDemo(db, SEEDED),
    jwtSecret: 'test-secret',
    app: { logLevel: 'silent', ...appOptions },
    telematics: telematics ? { config: { jt808Port: 0, host: '127.0.0.1', tokenTtlHours: 12 } } : undefined,
    forwarding: forwarding ? { jt809: true } : undefined,
  });
  const { app, database } = server;
  const call: TestServer['call'] = async (token, method, url, body, lang, extra) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(lang ? { 'accept-language': lang } : {}), ...extra },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };
  const orgId = async (code: string) =>
    (await database.db.selectFrom('organisation').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
  const login = async (loginName: string, password: string) => {
    const r = await call(null, 'POST', '/api/login', { loginName, password });
    if (r.status !== 200) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return r.body.object.token as string;
  };
  const hash = await hashPassword(MEMBER_PASSWORD);
  let n = 0;
  const addMember: TestServer['addMember'] = async (orgCode, memberType, codes) => {
    const db = database.db;
    const loginName = `${orgCode.toLowerCase()}-${memberType}-${++n}`;
    const org = await orgId(orgCode);
    const { id } = await db
      .insertInto('member')
      .values({
        uid: crypto.randomUUID(),
        login_name: loginName,
        name: loginName,
        member_type: memberType,
        org_id: org,
        password_hash: hash,
        first_sign: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('member_application').values({ member_id: id, application: 'obd-web' }).execute();
    const wanted = codes ?? (memberType === 'administrator' ? null : []);
    let q = db.selectFrom('resource').select('id').where('application', '=', 'obd-web');
    if (wanted) q = q.where('code', 'in', wanted.length ? wanted : ['-']);
    const resources = await q.execute();
    if (resources.length) {
      const role = await db
        .insertInto('role')
        .values({ org_id: org, application: 'obd-web', name: `role-${loginName}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('role_resource')
        .values(resources.map((r) => ({ role_id: role.id, resource_id: r.id })))
        .execute();
      await db.insertInto('member_role').values({ member_id: id, role_id: role.id }).execute();
    }
    return { id, loginName, token: await login(loginName, MEMBER_PASSWORD) };
  };
  return {
    app,
    database,
    forwarding: server.forwarding,
    call,
    orgId,
    login,
    addMember,
    async memberToken(orgCode, memberType, codes) {
      return (await addMember(orgCode, memberType, codes)).token;
    },
    async close() {
      await server.close();
      await pgdb?.drop();
    },
  };
}

/**
 * Starts a test server with a signed-in admin before a describe block's tests and closes it after;
 * `ready` receives both (the block keeps them in its own variables).
 */
export function useTestServer(backend: Backend, ready: (s: TestServer, admin: string) => void, appOptions: Partial<AppOptions> = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(backend, appOptions);
    ready(server, await server.login('admin', ADMIN_PASSWORD));
  });
  afterAll(() => server?.close());
}
