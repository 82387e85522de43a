import { sql, type Kysely } from 'kysely';
import { translate } from '../../schemas/kit/catalogue';
import { passwordViolations } from '../../schemas/kit/password';
import { generatePassword, hashPassword } from '../platform/auth/password';
import { revokeMemberSessions } from '../platform/auth/sessions';
import { orgStatusInTree } from '../platform/auth/accountState';
import { loadConfig } from '../config';
import { openDatabase } from '../platform/db/database';
import type { DB } from '../platform/db/tables';
import { writeAudit } from '../platform/audit';
import { unlockAccount } from '../passport/throttle';

/**
 * `npm run admin -- <command> <login>`: recovery when nobody can sign in. Runs on the database the
 * server would use (DATA_DIR or DATABASE_URL); on an embedded DATA_DIR the server must be stopped
 * first (the data directory lock refuses a second process).
 */
const USAGE = `Usage:
  npm run admin -- reset-password <login>   set a new password: NEW_PASSWORD, else one line on stdin, else a generated one printed once;
                                            ends the account's sessions, lifts its sign-in locks, asks for a change at the next sign-in
  npm run admin -- unlock <login>           lift the account's sign-in locks and every address lock`;

class UsageError extends Error {}

/** The password to set: NEW_PASSWORD, a line piped on stdin, or none (generate one). */
async function suppliedPassword(): Promise<string | null> {
  if (process.env.NEW_PASSWORD) return process.env.NEW_PASSWORD;
  if (process.stdin.isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0].trim();
  return line || null;
}

async function findMember(db: Kysely<DB>, login: string) {
  const m = await db
    .selectFrom('member as m')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select(['m.id', 'm.login_name', 'm.name', 'm.status', 'm.expire_date'])
    .select(orgStatusInTree('o').as('org_status'))
    .where(sql`lower(m.login_name)`, '=', login.toLowerCase())
    .executeTakeFirst();
  if (!m) throw new UsageError(`No account has the login name "${login}".`);
  return m;
}

/** What else would stop the account signing in, so the operator knows. */
function stateNotes(m: { status: string; expire_date: string | null; org_status: string }): string {
  const notes = [];
  if (m.status !== 'enabled') notes.push('the account is disabled');
  if (m.org_status !== 'enabled') notes.push('its organisation (or one above it) is disabled');
  if (m.expire_date && m.expire_date < new Date().toISOString().slice(0, 10)) notes.push(`it expired on ${m.expire_date}`);
  return notes.length ? `\nNote: ${notes.join(', ')}; another administrator must change that before it can sign in.` : '';
}

async function resetPassword(db: Kysely<DB>, login: string): Promise<string> {
  const m = await findMember(db, login);
  const supplied = await suppliedPassword();
  if (supplied) {
    const weak = passwordViolations(supplied);
    if (weak.length) throw new UsageError(`The password is too weak: ${weak.map((k) => translate('en-US', k)).join('; ')}.`);
  }
  const password = supplied ?? generatePassword();
  await db
    .updateTable('member')
    .set({ password_hash: await hashPassword(password), first_sign: true, password_changed_at: new Date(), updated_at: new Date() })
    .where('id', '=', m.id)
    .execute();
  await revokeMemberSessions(db, m.id);
  await unlockAccount(db, m.login_name);
  await writeAudit(db, { action: 'passwordReset', target: String(m.id), detail: 'admin command' });
  const shown = supplied ? '' : `\nNew password (shown once, stored nowhere in clear): ${password}`;
  return `Password of "${m.login_name}" reset; its sessions are ended and it must choose a new password at the next sign-in.${shown}${stateNotes(m)}`;
}

async function unlock(db: Kysely<DB>, login: string): Promise<string> {
  const m = await findMember(db, login);
  const account = await unlockAccount(db, m.login_name);
  // Behind a proxy without TRUST_PROXY every sign-in shares one address: lift those locks too.
  const addresses = Number((await db.deleteFrom('login_throttle').where('key', 'like', 'ip:%').executeTakeFirst()).numDeletedRows);
  await writeAudit(db, { action: 'memberUnlock', target: String(m.id), detail: { via: 'admin command', account, addresses } });
  return `Sign-in locks of "${m.login_name}" lifted (${account} account key(s), ${addresses} address key(s)).${stateNotes(m)}`;
}

async function main(): Promise<void> {
  const [command, login, ...rest] = process.argv.slice(2);
  const commands: Record<string, (db: Kysely<DB>, login: string) => Promise<string>> = { 'reset-password': resetPassword, unlock };
  if (!command || !commands[command] || !login || rest.length) throw new UsageError(USAGE);
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
    prepare: config.databasePrepare,
  });
  try {
    console.log(await commands[command](database.db, login));
  } finally {
    await database.close();
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(e instanceof UsageError ? 2 : 1);
});
