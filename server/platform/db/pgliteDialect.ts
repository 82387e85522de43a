import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely over PGlite. PGlite is one Postgres session, so connections are handed out one at a time:
 * without this lock two requests' statements would interleave inside each other's transactions
 * (kysely-pglite has no such lock, and pulls a CLI toolchain in; hence our own few lines).
 */
class Lock {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    readonly client: PGlite,
    readonly release: () => void,
  ) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.client.query<R>(q.sql, [...q.parameters]);
    return res.affectedRows !== undefined && !/^\s*select/i.test(q.sql)
      ? { rows: res.rows, numAffectedRows: BigInt(res.affectedRows) }
      : { rows: res.rows };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite cannot stream; page with keyset queries instead');
  }
}

class PGliteDriver implements Driver {
  #lock = new Lock();
  constructor(private readonly client: PGlite) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.client, await this.#lock.acquire());
  }
  async beginTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async releaseConnection(c: DatabaseConnection) {
    (c as PGliteConnection).release();
  }
  async destroy() {
    await this.client.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
