import crypto from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../platform/db/tables';
import { generatePassword, hashPassword } from '../platform/auth/password';
import { entities } from '../../schemas/generated/registry';
import { fixtureRows } from './fixtureRows';
import { demoFixtures, ROOT_ORG, type DemoFixtures, type OrgFixture } from './fixtures';
import { APPLICATIONS } from './menu';
import { syncResources } from './resources';
import { seedDemoAccounts } from './demoAccounts';
import { seedDemoAlarms } from './demoAlarms';
import { seedDemoExpertFaults } from './demoExpertFaults';

export interface SeedResult {
  seeded: boolean;
  /** Set only when the admin password was generated here: shown once, stored nowhere in clear. */
  generatedAdminPassword?: string;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

/** Inserts one row of a plain object (camelCase keys) into a table; returns its id. */
async function insert(trx: Transaction<DB>, table: string, row: Record<string, unknown>): Promise<number> {
  const entries = Object.entries(row).filter(([, v]) => v !== undefined);
  const cols = sql.raw(entries.map(([k]) => snake(k)).join(', '));
  const vals = sql.join(entries.map(([, v]) => sql`${v}`));
  const r = await sql<{ id: number }>`INSERT INTO ${sql.raw(table)} (${cols}) VALUES (${vals}) RETURNING id`.execute(trx);
  return r.rows[0].id;
}

export async function insertOrganisation(
  trx: Transaction<DB> | Kysely<DB>,
  o: OrgFixture,
  parent?: { id: number; path: string },
): Promise<{ id: number; path: string }> {
  const row = await trx
    .insertInto('organisation')
    .values({
      code: o.code,
      name: o.name,
      parent_id: parent?.id ?? null,
      path: '/',
      type: o.type,
      status: 'enabled',
      contact: o.contact ?? null,
      phone: o.phone ?? null,
      address: o.address ?? null,
      is_system: !!o.isSystem,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const path = `${parent?.path ?? '/'}${row.id}/`;
  await trx.updateTable('organisation').set({ path }).where('id', '=', row.id).execute();
  return { id: row.id, path };
}

/**
 * On an empty database: the organisation tree's root and the `admin` account, plus the demo
 * fixtures when asked. Does nothing when any organisation exists, so restarts keep the data.
 */
export async function seed(
  db: Kysely<DB>,
  opts: {
    demo: boolean;
    adminPassword?: string;
    fixtures?: DemoFixtures;
    /** with `demo`: the demo's alarm policies, town fences and console rules (seedDemoAlarms) and its expert fault library */ demoAlarms?: boolean;
  },
): Promise<SeedResult> {
  const fx = opts.fixtures ?? demoFixtures;
  const password = opts.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    await syncResources(trx);
    const existing = await trx.selectFrom('organisation').select('id').limit(1).execute();
    if (existing.length) return { seeded: false };
    const orgs = new Map<string, { id: number; path: string }>();
    for (const o of fx.organisations.filter((o) => o.code === ROOT_ORG || opts.demo)) {
      orgs.set(o.code, await insertOrganisation(trx, o, o.parent ? orgs.get(o.parent) : undefined));
    }
    await trx
      .insertInto('member')
      .values({
        uid: crypto.randomUUID(),
        login_name: 'admin',
        name: '系统管理员',
        member_type: 'administrator',
        org_id: orgs.get(ROOT_ORG)!.id,
        password_hash: passwordHash,
        first_sign: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(({ id }) =>
        trx
          .insertInto('member_application')
          .values(APPLICATIONS.map((application) => ({ member_id: id, application })))
          .execute(),
      );
    if (opts.demo) {
      await seedDemo(trx, fx, orgs);
      await seedDemoAccounts(trx, orgs, passwordHash);
      // Apart from the fixtures, so tests that script their own policies and fences start without them.
      if (opts.demoAlarms) {
        await seedDemoAlarms(trx, orgs);
        await seedDemoExpertFaults(trx);
      }
    }
    return { seeded: true, ...(opts.adminPassword ? {} : { generatedAdminPassword: password }) };
  });
}

async function seedDemo(trx: Transaction<DB>, fx: DemoFixtures, orgs: Map<string, { id: number }>): Promise<void> {
  const byKey = new Map<string, number>();
  for (const row of fixtureRows(fx)) {
    const refs = Object.fromEntries(Object.entries(row.refs).map(([prop, key]) => [prop, byKey.get(key)]));
    byKey.set(row.key, await insert(trx, entities[row.entity]['x-entity'].table, { ...row.values, ...refs, orgId: orgs.get(row.org)!.id }));
  }
}
