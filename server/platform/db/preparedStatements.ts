/**
 * Repeated statements prepared once per connection. The derivation runs the same two dozen
 * statements on every pass (docs/benchmarks.md, "CPU per position derived"); sent unnamed,
 * PostgreSQL parses and plans each of them again every time, which was about 40 % of the database
 * backends' CPU per live derived position. A statement sent with a name is parsed once per
 * connection and its plan cached (PostgreSQL's plan cache chooses generic or custom plans itself).
 *
 * Only parameterised statements are named (a statement without parameters may hold several
 * commands, which the extended protocol refuses: the migrations' scripts), and only once their text
 * has been seen before, so that one-off texts (an IN list of a given length) take no slot. The
 * slots are bounded per process, as each named statement holds memory in every backend that ran it.
 */

import type pg from 'pg';

/** Statements named at most; later new texts run unnamed. */
const MAX_NAMED = 400;
/**
 * Texts remembered as seen once at most before they are forgotten (the named ones stay named): whole
 * statement texts of a few kilobytes each, so a few megabytes. A repeated statement comes back
 * within a pass, long before a few thousand one-off texts have passed.
 */
const MAX_SEEN = 2_000;

/** The name of each prepared text (one per process: a name means the same text on every connection). */
const named = new Map<string, string>();
const seen = new Set<string>();

/** The name to run `text` under, or undefined to run it unnamed. */
export function statementName(text: string, parameters: number): string | undefined {
  if (parameters === 0) return undefined;
  const name = named.get(text);
  if (name !== undefined) return name;
  if (!seen.has(text)) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(text);
    return undefined;
  }
  if (named.size >= MAX_NAMED) return undefined;
  const next = `fs_${named.size + 1}`;
  named.set(text, next);
  seen.delete(text);
  return next;
}

/** pg's `query(text, values)` as kysely calls it; the other overloads pass through. */
type Query = (...args: unknown[]) => unknown;

/** Makes each client the pool connects name its repeated statements (`statementName`). */
export function prepareRepeated(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    // pg's overloaded `query` cannot be re-declared with its overloads kept; the wrapper only
    // rewrites the (text, values) call kysely makes and hands every other call on unchanged.
    const target = client as unknown as { query: Query };
    const query = target.query.bind(client);
    target.query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
        const name = statementName(text, values.length);
        if (name) return query({ name, text, values });
      }
      return query(...args);
    };
  });
}
