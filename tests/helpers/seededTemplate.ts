import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/platform/db/database';
import { migrate } from '../../server/platform/db/migrate';
import type { DB } from '../../server/platform/db/tables';
import { seed } from '../../server/seed/seed';
import { makeOnce, sourcesDigest } from './madeOnce';

/**
 * A migrated, demo-seeded database made once and copied for each test server: PGlite's initdb,
 * the migrations and the seed take 3–5 s, a copy well under one. Named by a hash of what decides
 * its content (the server's and the schemas' sources, the admin password) and the UTC day (rows
 * stamped now() stay of today), so a changed migration or seed makes a new one.
 */

const ROOT = path.resolve(__dirname, '../..');
const INPUTS = ['server', 'schemas'];
const STALE_LOCK_MS = 300_000;
/**
 * Another key's template is dropped only once it is this old: checkouts of other sources (worktrees)
 * may be running tests on the same machine and PostgreSQL with theirs right now.
 */
const OTHER_KEY_KEPT_MS = 6 * 3_600_000;

let sources: string | undefined;
/** The template's name: the sources' hash (once per process), the seed's options and the UTC day. */
function templateKey(options: SeedOptions): string {
  sources ??= sourcesDigest(ROOT, INPUTS, (name, isDirectory) => isDirectory || /\.(ts|sql|json)$/.test(name));
  return crypto
    .createHash('sha256')
    .update(sources)
    .update(JSON.stringify(options))
    .update(new Date().toISOString().slice(0, 10))
    .digest('hex')
    .slice(0, 16);
}

/** What the demo seed is given: the test servers' (testServer.ts), or `npm start`'s with SEED=demo. */
export interface SeedOptions {
  adminPassword: string;
  demoAlarms?: boolean;
}

/** The demo seed with these options: what a template holds, and what a server started on a copy runs (and finds done). */
export const seedDemo = (db: Kysely<DB>, options: SeedOptions) => seed(db, { demo: true, ...options });

async function migrateAndSeed(database: Database, options: SeedOptions): Promise<void> {
  await migrate(database);
  await seedDemo(database.db, options);
}

/** Removes what older sources or days left in the temp folder: the same prefix, another key, not touched for hours. */
function dropOlder(prefix: string, key: string): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(prefix) || name.includes(key)) continue;
    const file = path.join(os.tmpdir(), name);
    const touched = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - touched > OTHER_KEY_KEPT_MS) fs.rmSync(file, { recursive: true, force: true });
  }
}

/** The seeded PGlite data directory, as a tarball to start a memory database from. */
export async function pgliteTemplate(options: SeedOptions): Promise<Blob> {
  const key = templateKey(options);
  const file = path.join(os.tmpdir(), `fs-pglite-seeded-${key}.tar`);
  await makeOnce({ done: file, lock: `${file}.lock` }, STALE_LOCK_MS, async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await migrateAndSeed(database, options);
      if (!database.dumpDataDir) throw new Error('a PGlite template needs a PGlite database');
      const tar = await database.dumpDataDir();
      // Written whole, then renamed: a reader never sees half a file.
      fs.writeFileSync(`${file}.part`, Buffer.from(await tar.arrayBuffer()));
      fs.renameSync(`${file}.part`, file);
    } finally {
      await database.close();
    }
    dropOlder('fs-pglite-seeded-', key);
  });
  return new Blob([fs.readFileSync(file)]);
}

/**
 * Fills the empty folder `dataDir` with a copy of a seeded PGlite data directory (made once, closed
 * cleanly), as `npm start` would leave it after its first start with SEED=demo.
 */
export async function copySeededDataDir(dataDir: string, options: SeedOptions): Promise<void> {
  const key = templateKey(options);
  const dir = path.join(os.tmpdir(), `fs-datadir-seeded-${key}`);
  // Beside the folder, not in it: making it starts by removing what a killed run left there.
  const done = `${dir}.done`;
  await makeOnce({ done, lock: `${done}.lock` }, STALE_LOCK_MS, async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    const database = await openDatabase({ dataDir: dir });
    try {
      await migrateAndSeed(database, options);
    } finally {
      await database.close();
    }
    fs.writeFileSync(done, '');
    dropOlder('fs-datadir-seeded-', key);
  });
  fs.cpSync(dir, dataDir, { recursive: true });
}

/**
 * The name of a seeded PostgreSQL database to copy with CREATE DATABASE … TEMPLATE; made once per
 * key on the server at `url` (an advisory lock keeps two workers from making it together).
 */
export async function postgresTemplate(url: string, options: SeedOptions): Promise<string> {
  const name = `fs_seeded_${templateKey(options)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name]);
    if (!exists.rowCount) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      const target = new URL(url);
      target.pathname = '/' + name;
      const database = await openDatabase({ databaseUrl: target.toString(), poolSize: 2 });
      try {
        await migrateAndSeed(database, options);
      } finally {
        await database.close();
      }
      // Marked a template only once it is whole: a run killed half-way leaves one the next run redoes.
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
      // Its making time, so that another checkout's run drops it only once it is hours old.
      await admin.query(`COMMENT ON DATABASE ${name} IS '${Date.now()}'`);
      // Older sources' and days' templates go once hours old (a template must be unmarked to be dropped).
      const old = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database
          WHERE datname ~ '^fs_seeded_[0-9a-f]{16}$' AND datname <> $1
            AND coalesce(nullif(shobj_description(oid, 'pg_database'), '')::bigint, 0) < $2`,
        [name, Date.now() - OTHER_KEY_KEPT_MS],
      );
      for (const { datname } of old.rows) {
        await admin.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
        await admin.query(`DROP DATABASE ${datname} WITH (FORCE)`);
      }
    }
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  } finally {
    await admin.end();
  }
  return name;
}
