import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { checkDataDirAccess, lockDataDir, type DataDirLock } from './dataDirLock';
import { PGliteDialect } from './pgliteDialect';
import { prepareRepeated } from './preparedStatements';
import type { DB } from './tables';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * One database handle for the whole server: kysely for queries, plus `runScript` for migrations
 * (multi-statement SQL in one transaction). PGlite is opened at most once per process.
 */
export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /** PostgreSQL only: the pool behind `db`, for what kysely does not speak (COPY). */
  pool?: pg.Pool;
  /** Runs a multi-statement script and `after` in one transaction; rolls back on any error. */
  runScript(script: string, after: (trx: Kysely<DB>) => Promise<void>): Promise<void>;
  /** PGlite only: the whole data directory as a tarball (what `loadDataDir` starts from). */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… to use a server; otherwise PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite files; 'memory://' for a throw-away database. */
  dataDir?: string;
  /** PGlite: a new data directory starts as this tarball (`dumpDataDir`) instead of an empty cluster. */
  loadDataDir?: Blob;
  poolSize?: number;
  /** PostgreSQL: prepare repeated statements once per connection (preparedStatements.ts); default on. */
  prepare?: boolean;
}

// DATE stays 'YYYY-MM-DD' (a Date would shift by the server's time zone); int8 and numeric are
// numbers (counts and sums fit in 2^53).
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

let pgParsersSet = false;
function setPgParsers() {
  if (pgParsersSet) return;
  pg.types.setTypeParser(DATE_OID, (v: string) => v);
  pg.types.setTypeParser(INT8_OID, (v: string) => Number(v));
  pg.types.setTypeParser(NUMERIC_OID, (v: string) => Number(v));
  pgParsersSet = true;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.prepare ?? true);
  return openPGlite(opts.dataDir ?? 'memory://', opts.loadDataDir);
}

async function openPostgres(url: string, max: number, prepare: boolean): Promise<Database> {
  setPgParsers();
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client whose connection drops (server restart, terminated backend) is replaced by the
  // pool; without a listener its 'error' event would crash the whole process.
  pool.on('error', () => undefined);
  // The pool listens only while a client is idle: one checked out between two statements (inside a
  // transaction, a COPY) gets the server's "terminating connection" as an 'error' event that would
  // crash the process too. Its next statement fails instead, and the pool discards the client on
  // release (it is no longer queryable), so the pool reconnects once the server is back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (prepare) prepareRepeated(pool);
  // Fail fast with a clear message when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    pool,
    async runScript(script, after) {
      // An empty parameter list keeps pg on the simple protocol, which allows several statements.
      await db.transaction().execute(async (trx) => {
        await sql.raw(script).execute(trx);
        await after(trx);
      });
    },
    close: () => db.destroy(),
  };
}

async function openPGlite(dataDir: string, loadDataDir: Blob | undefined): Promise<Database> {
  let lock: DataDirLock | null = null;
  if (!dataDir.startsWith('memory://')) {
    const dir = path.resolve(dataDir);
    checkDataDirAccess(dir);
    fs.mkdirSync(dir, { recursive: true });
    lock = lockDataDir(dir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir, {
      // Extensions the migrations create (PostgreSQL ships them as contrib; PGlite needs them loaded).
      extensions: { pg_trgm },
      loadDataDir,
      parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v), [NUMERIC_OID]: (v: string) => Number(v) },
    });
  } catch (e) {
    lock?.release();
    throw e;
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  return {
    kind: 'pglite',
    db,
    async runScript(script, after) {
      // Through kysely's transaction so the dialect's lock keeps other queries out meanwhile.
      await db.transaction().execute(async (trx) => {
        await client.exec(script);
        await after(trx);
      });
    },
    dumpDataDir: async () => {
      // Flushed first: a copy that must replay WAL on load would skip each sequence ahead by the
      // 32 values PostgreSQL logs in advance.
      await client.exec('CHECKPOINT');
      return client.dumpDataDir('none');
    },
    close: async () => {
      await db.destroy();
      lock?.release();
    },
  };
}
