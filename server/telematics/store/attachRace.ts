/**
 * A writer racing a month partition's creation (partitions.ts). The creation attaches the new
 * partition holding only SHARE UPDATE EXCLUSIVE on the parent, so writers of other months carry
 * on. A statement that planned its routing before the attach committed still sends a row of the new
 * month to the DEFAULT partition; it waits there for the creation's lock and, once the attach has
 * committed, PostgreSQL's re-check of the default's now narrower constraint refuses the row. The
 * statement failed whole, so running it again is safe, and the next run routes to the new partition.
 */

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
