/**
 * A writer racing a month partition's creation (partitions.ts). The creation attaches the new
 * partition holding only SHARE UPDATE EXCLUSIVE on the parent, so writers of other months carry
 * on. A statement that planned its routing before the attach committed still sends a row of the new
 * month to the DEFAULT partition; it waits there for the creation's lock and, once the attach has
 * committed, PostgreSQL's re-check of the default's now narrower constraint refuses the row. The
 * statement failed whole, so running it again is safe, and the next run routes to the new partition.
 */

import type { Kysely, QueryResult, RawBuilder } from 'kysely';
import type { DB } from '../../platform/db/tables';

/** The refusal above: a check violation raised by a `<table>_default` partition's constraint. */
export function isAttachRace(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const { code, table } = e as Error & { code?: unknown; table?: unknown };
  return code === '23514' && typeof table === 'string' && table.endsWith('_default') && e.message.includes('violates partition constraint');
}

/** Runs a self-contained write (its own statement or transaction), again when it lost that race. */
export async function retryAttachRace<T>(run: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      // A creation commits once per month and table; three losses in a row is no race any more.
      if (attempt >= tries || !isAttachRace(e)) throw e;
    }
  }
}

/**
 * Executes a store statement, again when it lost that race. Inside a caller's transaction it runs
 * once: the failed statement has aborted the transaction, and only the caller can retry.
 */
export function executeStoring<T>(db: Kysely<DB>, statement: RawBuilder<T>): Promise<QueryResult<T>> {
  return db.isTransaction ? statement.execute(db) : retryAttachRace(() => statement.execute(db));
}
