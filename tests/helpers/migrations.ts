import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/platform/db/database';
import { migrate, migrationFiles, MIGRATIONS_DIR } from '../../server/platform/db/migrate';
import { freshPostgres, type Backend } from './testServer';

/** A fresh database migrated up to (not including) the migration file `before`: a migration's test runs it on rows written the old way. */
export async function databaseBefore(backend: Backend, before: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const pg = backend === 'postgres' ? await freshPostgres() : null;
  const database = await openDatabase(pg ? { databaseUrl: pg.url, poolSize: 2 } : { dataDir: 'memory://' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-migrations-'));
  try {
    for (const f of migrationFiles().filter((f) => f < before)) fs.copyFileSync(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
    await migrate(database, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    database,
    drop: async () => {
      await database.close();
      await pg?.drop();
    },
  };
}
