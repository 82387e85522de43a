import crypto from 'node:crypto';

/**
 * Compact HS256 JSON Web Tokens. The payload names a session row (`sid`), so the signature is
 * checked without the database, and revocation (logout, password change) is the row's business.
 */
export interface TokenClaims {
  sid: string;
  sub: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function signToken(claims: TokenClaims, secret: string): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const sig = crypto.createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${sig}`;
}

/** The claims of a valid, unexpired token; null for anything else. */
export function verifyToken(token: string, secret: string, nowSeconds = Date.now() / 1000): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = crypto.createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const c = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Partial<TokenClaims>;
    if (typeof c.sid !== 'string' || typeof c.sub !== 'number' || typeof c.exp !== 'number') return null;
    return c.exp > nowSeconds ? (c as TokenClaims) : null;
  } catch {
    return null;
  }
}
