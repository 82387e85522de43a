/**
 * Where a webhook (or SMS-gateway) rule may post: http(s) to a public address. Loopback,
 * unspecified, link-local, private (RFC 1918, CGNAT, ULA), multicast and reserved addresses are
 * refused, in every spelling (IPv4-mapped, -compatible, NAT64 and 6to4 forms included), so a rule
 * cannot reach the server itself or its network (blind SSRF). The rule is applied to a literal
 * address when a rule is saved and before a delivery, and to every address a name resolves to at
 * connect time (the agents' `lookup`), so a name that changes its answer between the two is still
 * caught. An operator may allow hosts or ranges (WEBHOOK_ALLOW) that would otherwise be refused.
 */

import dns from 'node:dns';
import net from 'node:net';
import type { FieldError } from '../../schemas/kit/errors';

/** What the operator allows beyond public addresses: host names (exact, or `*.` suffixes) and address ranges. */
export interface TargetAllow {
  names: ReadonlySet<string>;
  suffixes: readonly string[];
  ranges: net.BlockList;
  /** The list as written, for logs. */
  text: string;
}

export const NO_ALLOW: TargetAllow = { names: new Set(), suffixes: [], ranges: new net.BlockList(), text: '' };

const FORBIDDEN = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // this network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  FORBIDDEN.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible forms
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  FORBIDDEN.addSubnet(address, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (a zone id dropped), or null when it is not one. */
export function ipv6Bytes(text: string): number[] | null {
  const address = text.replace(/%.*$/, '');
  if (!net.isIPv6(address)) return null;
  // A trailing dotted quad is the last two groups.
  const written = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_all, a: string, b: string, c: string, d: string) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [left, right] = written.includes('::') ? written.split('::') : [written, null];
  const groups = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const l = groups(left);
  const r = right === null ? [] : groups(right);
  const words = right === null ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** The IPv4 address an IPv6 one carries (NAT64 64:ff9b::/96, 6to4 2002::/16), for the IPv4 rule. */
function embeddedIpv4(bytes: number[]): string | null {
  const word = (i: number) => (bytes[i] << 8) | bytes[i + 1];
  if (word(0) === 0x64 && word(2) === 0xff9b && bytes.slice(4, 12).every((b) => b === 0)) return bytes.slice(12).join('.');
  if (word(0) === 0x2002) return bytes.slice(2, 6).join('.');
  return null;
}

const familyOf = (ip: string): 'ipv4' | 'ipv6' | null => (net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null);

/**
 * Whether a delivery may go to this address: public, or inside a range the operator allows.
 * (BlockList matches IPv4-mapped IPv6 addresses against IPv4 ranges itself.)
 */
export function addressAllowed(ip: string, allow: TargetAllow): boolean {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = familyOf(address);
  if (!family) return false;
  if (allow.ranges.check(address, family)) return true;
  if (FORBIDDEN.check(address, family)) return false;
  if (family === 'ipv6') {
    const inner = embeddedIpv4(ipv6Bytes(address)!);
    if (inner) return addressAllowed(inner, allow);
  }
  return true;
}

const bareName = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** Whether the operator allows this host by name. */
const nameAllowed = (host: string, allow: TargetAllow): boolean => {
  const name = bareName(host);
  return allow.names.has(name) || allow.suffixes.some((s) => name.endsWith(s));
};

/** Why a URL is refused before any name is resolved: not http(s), or a forbidden literal address (or `localhost`). */
export type TargetProblem = 'scheme' | 'address';

/**
 * The URL's own problem, without resolving anything. `localNames`: also refuse the localhost names
 * (RFC 6761: the loopback wherever they are resolved) — when saving a rule, which resolves nothing;
 * a delivery leaves every name to the connect-time lookup.
 */
export function literalTargetProblem(url: string, allow: TargetAllow, { localNames = true } = {}): TargetProblem | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'scheme';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'scheme';
  // The WHATWG parser has already turned 127.1, 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'scheme';
  return hostRefused(host, allow, { localNames }) ? 'address' : null;
}

/**
 * Whether a host (a name or a literal address, as a URL holds it or a TCP target is written) is
 * refused without resolving anything: a forbidden literal address, or with `localNames` the
 * localhost names. The one rule behind a webhook's URL and a forwarding link's target.
 */
export function hostRefused(host: string, allow: TargetAllow, { localNames = true } = {}): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (nameAllowed(bare, allow)) return false;
  if (familyOf(bare)) return !addressAllowed(bare, allow);
  // A TCP target is not a URL: no parser has turned 127.1 or 2130706433 into 127.0.0.1, so the
  // spellings inet_aton reads are read here the way the URL parser would.
  const dotted = numericIpv4(bare);
  if (dotted) return !addressAllowed(dotted, allow);
  const name = bareName(bare);
  return localNames && (name === 'localhost' || name.endsWith('.localhost'));
}

/** An IPv4 address in one of the numeric forms `inet_aton` accepts (127.1, 0x7f.1, 2130706433, 0177.0.0.1), dotted; else null. */
function numericIpv4(host: string): string | null {
  if (!/^[0-9a-fx.]+$/i.test(host) || !/\d/.test(host)) return null;
  try {
    const parsed = new URL(`http://${host}/`).hostname;
    return net.isIPv4(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A refusal by this guard, told apart from network failures. */
export class TargetRefused extends Error {
  readonly code = 'ETARGETREFUSED';
}

/**
 * A `lookup` for http(s) agents: the name resolved, and refused unless every address it gives is
 * allowed — the addresses checked are the ones connected to.
 */
export function guardedLookup(allow: TargetAllow, setting = 'WEBHOOK_ALLOW'): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const trusted = nameAllowed(hostname, allow);
      const refused = addresses.find((a) => !trusted && !addressAllowed(a.address, allow));
      if (refused)
        return callback(
          new TargetRefused(`${hostname} resolves to ${refused.address}, which may not be reached unless ${setting} allows it`),
          '',
          4,
        );
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      // Callers asking for every address (autoSelectFamily) get the list, others the first.
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * WEBHOOK_ALLOW (and FORWARD_ALLOW, `setting`): a comma or space separated list of host names (`hooks.internal`, `*.corp.example`),
 * addresses and CIDR ranges (`10.1.2.3`, `10.20.0.0/16`, `fd00::/8`) webhooks may reach although
 * they are not public. Throws naming the entry it cannot read.
 */
export function parseTargetAllow(value: string | undefined, setting = 'WEBHOOK_ALLOW'): TargetAllow {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return NO_ALLOW;
  const names = new Set<string>();
  const suffixes: string[] = [];
  const ranges = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.replace(/^\[|\](?=\/|$)/g, '').split('/');
    const family = familyOf(address);
    if (family) {
      const max = family === 'ipv4' ? 32 : 128;
      const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (extra !== undefined || !(bits >= 0 && bits <= max)) throw new Error(`${setting}: "${entry}" is not an address or CIDR range`);
      ranges.addSubnet(address, bits, family);
    } else if (/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      if (entry.startsWith('*.')) suffixes.push(bareName(entry.slice(1)));
      else names.add(bareName(entry));
    } else throw new Error(`${setting}: "${entry}" is not a host name, address or CIDR range`);
  }
  return { names, suffixes, ranges, text: entries.join(',') };
}

/** A target URL field's error as every form that takes one reports it (a rule's, a subscription's), or null when allowed. */
export function targetFieldError(url: string, allow: TargetAllow, labelKey: string): FieldError | null {
  const problem = literalTargetProblem(url, allow);
  if (!problem) return null;
  return { field: 'url', key: problem === 'scheme' ? 'notify.urlNotHttp' : 'notify.targetForbidden', params: {}, labelKey };
}
