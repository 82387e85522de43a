import { passwordViolations } from '../../../schemas/kit/password';
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;

// N=2^15, r=8, p=1: ~50 ms and 32 MiB per hash on these machines; stored with the hash so it can rise later.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;
/** Spends the time of a real check, so an unknown login name is not revealed by a faster answer. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password-1');
  await verifyPassword(password, await dummy);
}

/** A random password that satisfies the login and change-dialog rules (letters, digits, no runs). */
export function generatePassword(): string {
  for (;;) {
    const pw = crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 12);
    // Must pass the change-dialog rules, or the first login would be refused as weak.
    if (pw.length === 12 && passwordViolations(pw).length === 0) return pw;
  }
}
