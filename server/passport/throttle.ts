import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { AppError } from '../platform/http/errors';

/**
 * Failed logins, per account and per address: after a few failures each answer is slowed, then the
 * key is locked for a while. Kept in the database so every instance and restart agree.
 */
export interface ThrottlePolicy {
  /** Failures counted within this window (minutes). */
  windowMinutes: number;
  /** Failures after which answers are slowed by `slowMs` per extra failure (capped at `maxSlowMs`). */
  slowAfter: number;
  slowMs: number;
  maxSlowMs: number;
  /** Failures after which the key is locked for `lockMinutes`. */
  lockAccountAfter: number;
  lockAddressAfter: number;
  lockMinutes: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  windowMinutes: 15,
  slowAfter: 2,
  slowMs: 400,
  maxSlowMs: 3000,
  lockAccountAfter: 5,
  lockAddressAfter: 30,
  lockMinutes: 15,
};

/**
 * An account is locked per address: a stranger guessing `admin`'s password locks it only for
 * themselves, never for its owner elsewhere (the per-address key still stops one address guessing many).
 */
export const accountKey = (loginName: string, ip: string) => `account:${loginName.toLowerCase()}@${ip}`;
/** LIKE pattern of every address's key of one account. */
export const accountKeysPattern = (loginName: string) => `account:${loginName.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c)}@%`;
export const addressKey = (ip: string) => `ip:${ip}`;

/** Minutes left on the longest lock among the keys, or 0 when none is locked. */
export async function lockedMinutes(db: Kysely<DB>, keys: string[]): Promise<number> {
  const rows = await db
    .selectFrom('login_throttle')
    .select('locked_until')
    .where('key', 'in', keys)
    .where('locked_until', '>', new Date())
    .execute();
  const until = Math.max(0, ...rows.map((r) => new Date(r.locked_until as Date).getTime()));
  return until ? Math.ceil((until - Date.now()) / 60000) : 0;
}

/** Counts a failure on each key, locking keys over their limit; returns how long to delay the answer. */
export async function recordFailure(
  db: Kysely<DB>,
  policy: ThrottlePolicy,
  keys: Array<{ key: string; lockAfter: number }>,
): Promise<number> {
  let worst = 0;
  for (const { key, lockAfter } of keys) {
    const windowStart = new Date(Date.now() - policy.windowMinutes * 60000);
    const row = await db
      .insertInto('login_throttle')
      .values({ key, failures: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          // A failure after a quiet window starts counting afresh.
          failures: sql`CASE WHEN login_throttle.window_start < ${windowStart} THEN 1 ELSE login_throttle.failures + 1 END`,
          window_start: sql`CASE WHEN login_throttle.window_start < ${windowStart} THEN now() ELSE login_throttle.window_start END`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    if (row.failures >= lockAfter) {
      await db
        .updateTable('login_throttle')
        .set({ locked_until: new Date(Date.now() + policy.lockMinutes * 60000), failures: 0, window_start: new Date() })
        .where('key', '=', key)
        .execute();
    }
    worst = Math.max(worst, row.failures);
  }
  return worst > policy.slowAfter ? Math.min(policy.maxSlowMs, (worst - policy.slowAfter) * policy.slowMs) : 0;
}

/** Lifts the locks (and forgets the failures) of an account at every address; returns how many keys it cleared. */
export async function unlockAccount(db: Kysely<DB>, loginName: string): Promise<number> {
  const r = await db.deleteFrom('login_throttle').where('key', 'like', accountKeysPattern(loginName)).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A successful login forgets the account's failures. */
export async function clearFailures(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Password guesses of one account from one address, wherever a password is checked (sign-in, the
 * old password of a change): one count and one lock, per account at the address and per address.
 */
export function passwordGuesses(db: Kysely<DB>, policy: ThrottlePolicy, loginName: string, ip: string) {
  const account = accountKey(loginName, ip);
  const address = addressKey(ip);
  return {
    /** Refuses (400 passport.locked, with the minutes left) while the account at this address, or the address, is locked. */
    async assertOpen(): Promise<void> {
      const locked = await lockedMinutes(db, [account, address]);
      if (locked) throw new AppError(400, 'passport.locked', { minutes: locked });
    },
    /** Counts a wrong password (locking what went over its limit) and waits the slowing it earned. */
    async wrong(): Promise<void> {
      await sleep(
        await recordFailure(db, policy, [
          { key: account, lockAfter: policy.lockAccountAfter },
          { key: address, lockAfter: policy.lockAddressAfter },
        ]),
      );
    },
    /** A right password forgets the account's failures at this address. */
    right: () => clearFailures(db, account),
  };
}
