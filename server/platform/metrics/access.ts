/**
 * Who may read /metrics (METRICS_TOKEN, METRICS_ALLOW): with a token, a request must carry
 * `Authorization: Bearer <token>`; the allowed networks, when set, apply on top. Without a token
 * only the allowed networks may read, loopback by default, so a fresh install never shows its
 * figures to the internet.
 */

import crypto from 'node:crypto';
import net from 'node:net';

export interface MetricsAccess {
  /** METRICS_TOKEN; absent, no token is asked for. */
  token?: string;
  /** METRICS_ALLOW parsed; null, every address (only with a token). */
  allow: net.BlockList | null;
  /** The list as configured, for the log. */
  text: string;
}

const LOOPBACK = '127.0.0.0/8,::1/128';

/** METRICS_ALLOW: a comma list of addresses and CIDR ranges, or `any` (needs METRICS_TOKEN). */
export function parseMetricsAccess(token: string | undefined, allowText: string | undefined): MetricsAccess {
  const t = token?.trim() || undefined;
  if (t !== undefined && t.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
  const text = allowText?.trim() || (t ? 'any' : LOOPBACK);
  if (text === 'any') {
    if (!t) throw new Error('METRICS_ALLOW=any needs METRICS_TOKEN: /metrics would be open to everyone');
    return { token: t, allow: null, text };
  }
  const allow = new net.BlockList();
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bitsText, extra] = entry.split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
    const max = family === 'ipv4' ? 32 : 128;
    const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : -1;
    if (!family || extra !== undefined || bits < 0 || bits > max)
      throw new Error(`METRICS_ALLOW: "${entry}" is not an address or CIDR range`);
    allow.addSubnet(address, bits, family);
  }
  return { token: t, allow, text };
}

/** Why a request is refused: 'token' (401), 'address' (403), or null when it may read. */
export function metricsRefusal(access: MetricsAccess, address: string, authorization: string | undefined): 'token' | 'address' | null {
  if (access.allow) {
    const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    // BlockList matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against IPv4 ranges itself.
    if (!net.isIP(address) || !access.allow.check(address, family)) return 'address';
  }
  if (access.token) {
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
    const a = crypto.createHash('sha256').update(given).digest();
    const b = crypto.createHash('sha256').update(access.token).digest();
    // Compared in constant time (over digests, so lengths never differ).
    if (!crypto.timingSafeEqual(a, b)) return 'token';
  }
  return null;
}
