import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from './database';

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

const MIGRATION_NAME = /^\d{16}_[a-z0-9_]+\.sql$/;

/**
 * Migration files in order: names start with a 16-digit timestamp, so text order is time order. An
 * SQL file named otherwise is refused rather than skipped: skipped, it would never run anywhere.
 */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  const sqlFiles = fs.readdirSync(dir).filter((f) => f.endsWith('.sql'));
  const misnamed = sqlFiles.filter((f) => !MIGRATION_NAME.test(f)).sort();
  if (misnamed.length)
    throw new Error(`migration files must be named YYYYMMDDHHmmss00_lower_snake_name.sql (16 digits): ${misnamed.join(', ')} in ${dir}`);
  return sqlFiles.sort();
}

/**
 * Applies every migration not yet recorded, each in its own transaction, the same SQL on PGlite and
 * PostgreSQL. On PostgreSQL an advisory lock keeps two starting servers from migrating at once.
 */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const { db } = database;
  await sql`CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const applied: string[] = [];
  const run = async () => {
    const done = new Set((await db.selectFrom('schema_migration').select('name').execute()).map((r) => r.name));
    for (const file of migrationFiles(dir)) {
      if (done.has(file)) continue;
      const script = fs.readFileSync(path.join(dir, file), 'utf8');
      await database.runScript(script, async (trx) => {
        await trx.insertInto('schema_migration').values({ name: file }).execute();
      });
      applied.push(file);
    }
  };
  if (database.kind === 'postgres') {
    await db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(808808)`.execute(conn);
      try {
        await run();
      } finally {
        await sql`SELECT pg_advisory_unlock(808808)`.execute(conn);
      }
    });
  } else {
    await run();
  }
  return applied;
}
