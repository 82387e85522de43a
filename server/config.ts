import { ALARM_TYPES, isAlarmType, type AlarmType } from './intelligence/alarms/types';
import { isMailbox, type SmtpConfig } from './notify/smtp';
import { parseTargetAllow, type TargetAllow } from './notify/target';
import path from 'node:path';
import { geocodeConfig, type GeocodeConfig } from './geocode/config';
import { parseMetricsAccess, type MetricsAccess } from './platform/metrics/access';
import { checksumPolicyFromEnv, type ChecksumPolicy } from './telematics/gateway/checksumPolicy';
import { safetyPolicyFromEnv, type SafetyStandardPolicy } from './telematics/gateway/safetyStandard';

export interface Config {
  port: number;
  host: string;
  /** Embedded database files and uploads live here. */
  dataDir: string;
  /** postgres://… to use a PostgreSQL server instead of the embedded database. */
  databaseUrl?: string;
  /** Password of the seeded `admin` account; generated and printed once when unset. */
  adminPassword?: string;
  /** Token signing secret; generated and kept in the database when unset. */
  jwtSecret?: string;
  /** JT/T 808 gateway port; 0 disables the gateway (and the demo fleet). */
  jt808Port: number;
  /**
   * JT/T 1078 media server port (JT1078_MEDIA_PORT, TCP): camera terminals stream live video here;
   * 0 turns video off. Runs only beside the gateway, in a single process.
   */
  jt1078MediaPort: number;
  /** The address terminals are told to send video to (JT1078_MEDIA_HOST; default 127.0.0.1). */
  jt1078MediaHost: string;
  /** Simulated demo terminals `npm start` runs against its own gateway (0 = none). */
  simulate: number;
  /** Built console served at /; absent → API only. */
  consoleDir: string;
  /** 'demo' seeds demo organisations, vehicles, terminals and drivers on an empty database. */
  seed: 'demo' | 'none';
  tokenTtlHours: number;
  logLevel: string;
  /**
   * Map tile URL template ({z}/{x}/{y}) the console's maps load: OpenStreetMap's standard tiles by
   * default; absent (MAP_TILE_URL=off) → maps draw on a plain background and every request stays
   * on this server.
   */
  mapTileUrl?: string;
  /** Credit shown on the map: OpenStreetMap's for its tiles, else MAP_TILE_ATTRIBUTION. */
  mapTileAttribution?: string;
  /** Coordinate system of those tiles: WGS84 (OpenStreetMap and most) or GCJ02 (Chinese providers). */
  mapTileCoords: 'WGS84' | 'GCJ02';
  /**
   * Months of positions and OBD records kept besides the current month; older month partitions are
   * dropped whole. Null keeps everything.
   */
  positionRetentionMonths: number | null;
  /**
   * Which reverse proxies to believe (X-Forwarded-For/-Proto): false (the default) trusts none, so
   * the socket address is the client's; true trusts every hop; a number trusts that many hops; a
   * list trusts those addresses or CIDR ranges.
   */
  trustProxy: TrustProxy;
  /** Connection limits of the JT/T 808 gateway (issue 18): unset values keep the gateway's defaults. */
  jt808Limits: Jt808LimitsConfig;
  /** NATS server of a fleet run as several processes (NATS_URL); absent, everything stays in-process. */
  natsUrl?: string;
  /** GATEWAY_WORKERS: processes sharing the HTTP and JT/T 808 ports (default 1: this one). */
  gatewayWorkers: number;
  /** Set by the primary in each worker it forks (GATEWAY_WORKER, 1-based); absent in a single process. */
  gatewayWorker?: number;
  /** A wrong checksum, per terminal model: JT808_BAD_CHECKSUM and JT808_BAD_CHECKSUM_MODELS. */
  jt808Checksum: ChecksumPolicy;
  /** The active safety standard (苏标 or 粤标), per terminal model: JT808_SAFETY_STANDARD and JT808_SAFETY_STANDARD_MODELS. */
  jt808Safety: SafetyStandardPolicy;
  /**
   * The active safety attachment service: its port (JT808_ATTACHMENT_PORT, unset = off), the address
   * terminals are told to upload to (JT808_ATTACHMENT_HOST, default: the one they reached the
   * gateway on) and the largest file they may declare (JT808_ATTACHMENT_MAX_MB, default 64).
   */
  jt808Attachments?: { port: number; host: string | null; maxFileBytes: number };
  /** IANA time zone of local days (the daily ledger, reports' dates): FLEET_TIMEZONE, default Asia/Shanghai. */
  fleetTimeZone: string;
  /**
   * Days of demo history driven through the gateway on a fresh demo database (DEMO_HISTORY_DAYS,
   * default 30; 0 skips it).
   */
  demoHistoryDays: number;
  /** The mail server e-mail notification rules send through (SMTP_*); null when SMTP_HOST is unset. */
  smtp: SmtpConfig | null;
  /** WEBHOOK_ALLOW: non-public hosts and ranges webhook and SMS-gateway rules may post to (default none). */
  webhookAllow: TargetAllow;
  /** FORWARD_ALLOW: non-public hosts and ranges forwarding links may connect to (default none). */
  forwardAllow: TargetAllow;
  /** Who may read /metrics: METRICS_TOKEN (Bearer) and METRICS_ALLOW (CIDRs; loopback by default without a token). */
  metricsAccess: MetricsAccess;
  /** OBD alarm record item ids mapped to alarm types (OBD_ALARM_TYPES: "0x11=PullOut,0x12=Insert"). */
  obdAlarmTypes: ReadonlyMap<number, AlarmType>;
  /**
   * DERIVE_THREAD: derive trips, alarms and the rest on a thread of their own rather than beside the
   * gateway (default on with DATABASE_URL; the embedded database cannot be shared with a thread).
   */
  deriveThread: boolean;
  /**
   * DATABASE_PREPARE: name repeated statements so PostgreSQL plans them once per connection
   * (default on; "0" for a pooler in transaction mode that cannot keep prepared statements).
   */
  databasePrepare: boolean;
  /** Reverse geocoding of positions into addresses (GEOCODE_PROVIDER, GEOCODE_URL, GEOCODE_KEY…). */
  geocode: GeocodeConfig;
}

export interface Jt808LimitsConfig {
  /** Gateway connections per process (never above the open-file limit minus fdReserve). */
  maxConnections?: number;
  /** Descriptors always left to HTTP, the database and files. */
  fdReserve?: number;
  /** Connections not authenticated yet, overall and per source address. */
  maxPending?: number;
  maxPendingPerAddress?: number;
  /** Absolute deadline from connect to authenticated, ms. */
  handshakeTimeoutMs?: number;
}

export type TrustProxy = boolean | number | string[];

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`${name} must be a number of terminals (0-1000), got "${value}"`);
  return n;
}

/** OpenStreetMap's standard tiles (WGS-84): the basemap when MAP_TILE_URL is unset. */
export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** An http(s) URL or a path on this server, with the {z}, {x} and {y} placeholders; unset → OpenStreetMap, `off` → none. */
function tileUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return OSM_TILE_URL;
  if (value === 'off') return undefined;
  const absolute = /^https?:\/\/[^\s/?#]+\/\S*$/.test(value);
  const local = /^\/(?!\/)\S*$/.test(value);
  if ((!absolute && !local) || !['{z}', '{x}', '{y}'].every((p) => value.includes(p))) {
    throw new Error(`MAP_TILE_URL must be an http(s) URL or a path with {z}, {x} and {y}, or off, got "${value}"`);
  }
  return value;
}

function tileAttribution(env: NodeJS.ProcessEnv): string | undefined {
  if (env.MAP_TILE_ATTRIBUTION) return env.MAP_TILE_ATTRIBUTION;
  return tileUrl(env.MAP_TILE_URL) === OSM_TILE_URL ? OSM_ATTRIBUTION : undefined;
}

function tileCoords(value: string | undefined): Config['mapTileCoords'] {
  if (value === undefined || value === '') return 'WGS84';
  if (value !== 'WGS84' && value !== 'GCJ02') throw new Error(`MAP_TILE_COORDS must be "WGS84" or "GCJ02", got "${value}"`);
  return value;
}

/** Unset, empty or 0: keep everything; otherwise 1-1200 months. */
function retentionMonths(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 1200)
    throw new Error(`POSITION_RETENTION_MONTHS must be a number of months (1-1200, or 0 to keep everything), got "${value}"`);
  return n === 0 ? null : n;
}

/** TRUST_PROXY: unset/false, true, a hop count (1-10), or a comma list of addresses and CIDR ranges. */
export function trustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    if (n > 10) throw new Error(`TRUST_PROXY hop count must be 1-10, got "${value}"`);
    return n;
  }
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((a) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a));
  if (!list.length || bad.length)
    throw new Error(`TRUST_PROXY must be true, a hop count or a comma list of proxy addresses (CIDR allowed), got "${value}"`);
  return list;
}

/** A positive whole number up to `max`, or undefined when unset. */
function optionalCount(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}, got "${value}"`);
  return n;
}

function attachmentConfig(env: NodeJS.ProcessEnv): Config['jt808Attachments'] {
  const port = optionalCount('JT808_ATTACHMENT_PORT', env.JT808_ATTACHMENT_PORT, 65535);
  if (port === undefined) return undefined;
  const host = env.JT808_ATTACHMENT_HOST?.trim() || null;
  if (host !== null && !/^[A-Za-z0-9.:-]{1,255}$/.test(host))
    throw new Error(`JT808_ATTACHMENT_HOST must be a host name or address, got "${host}"`);
  const mb = optionalCount('JT808_ATTACHMENT_MAX_MB', env.JT808_ATTACHMENT_MAX_MB, 2047) ?? 64;
  return { port, host, maxFileBytes: mb * 1024 * 1024 };
}

function jt808Limits(env: NodeJS.ProcessEnv): Jt808LimitsConfig {
  const seconds = optionalCount('JT808_HANDSHAKE_TIMEOUT_S', env.JT808_HANDSHAKE_TIMEOUT_S, 3600);
  return {
    maxConnections: optionalCount('JT808_MAX_CONNECTIONS', env.JT808_MAX_CONNECTIONS, 10_000_000),
    fdReserve: optionalCount('JT808_FD_RESERVE', env.JT808_FD_RESERVE, 10_000_000),
    maxPending: optionalCount('JT808_MAX_PENDING', env.JT808_MAX_PENDING, 10_000_000),
    maxPendingPerAddress: optionalCount('JT808_MAX_PENDING_PER_ADDRESS', env.JT808_MAX_PENDING_PER_ADDRESS, 10_000_000),
    handshakeTimeoutMs: seconds === undefined ? undefined : seconds * 1000,
  };
}

/** nats://host:port (comma lists allowed, as nats.js takes them), or undefined when unset. */
function natsUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!value.split(',').every((u) => /^(nats|tls|wss?):\/\/[^\s/]+$/.test(u.trim())))
    throw new Error(`NATS_URL must be nats://host:port (or a comma list), got "${value}"`);
  return value;
}

/** An IANA zone name Intl knows (FLEET_TIMEZONE). */
export function timeZone(value: string | undefined): string {
  if (value === undefined || value === '') return 'Asia/Shanghai';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new Error(`FLEET_TIMEZONE must be an IANA time zone such as Asia/Shanghai, got "${value}"`);
  }
  return value;
}

export function smtpConfig(env: NodeJS.ProcessEnv): SmtpConfig | null {
  if (!env.SMTP_HOST) return null;
  const secure = env.SMTP_SECURE === 'true' || env.SMTP_SECURE === '1';
  if (env.SMTP_SECURE && !['true', 'false', '1', '0'].includes(env.SMTP_SECURE))
    throw new Error(`SMTP_SECURE must be "true" or "false", got "${env.SMTP_SECURE}"`);
  const from = env.SMTP_FROM ?? '';
  if (!isMailbox(from)) throw new Error(`SMTP_FROM must be the sender's e-mail address when SMTP_HOST is set, got "${from}"`);
  if (env.SMTP_PASSWORD && !env.SMTP_USER) throw new Error('SMTP_PASSWORD is set without SMTP_USER');
  return {
    host: env.SMTP_HOST,
    port: int('SMTP_PORT', env.SMTP_PORT, secure ? 465 : 25),
    secure,
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from,
  };
}

export function obdAlarmTypes(value: string | undefined): Map<number, AlarmType> {
  const out = new Map<number, AlarmType>();
  for (const entry of (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = /^(0x[0-9a-f]+|\d+)\s*=\s*([A-Za-z]+)$/i.exec(entry);
    const id = m ? Number(m[1]) : NaN;
    if (!m || !(id >= 0 && id <= 0xffff))
      throw new Error(`OBD_ALARM_TYPES must list id=Type pairs (e.g. "0x11=PullOut,0x12=Insert"), got "${entry}"`);
    if (!isAlarmType(m[2])) throw new Error(`OBD_ALARM_TYPES: "${m[2]}" is not an alarm type (${ALARM_TYPES.join(', ')})`);
    out.set(id, m[2]);
  }
  return out;
}

function deriveThread(value: string | undefined, databaseUrl: string | undefined): boolean {
  if (value === undefined || value === '') return databaseUrl !== undefined;
  if (value !== '0' && value !== '1') throw new Error(`DERIVE_THREAD must be "1" or "0", got "${value}"`);
  if (value === '1' && databaseUrl === undefined)
    throw new Error('DERIVE_THREAD=1 needs DATABASE_URL: the embedded database belongs to one thread');
  return value === '1';
}

function databasePrepare(value: string | undefined): boolean {
  if (value === undefined || value === '') return true;
  if (value !== '0' && value !== '1') throw new Error(`DATABASE_PREPARE must be "1" or "0", got "${value}"`);
  return value === '1';
}

function historyDays(value: string | undefined): number {
  if (value === undefined || value === '') return 30;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 366) throw new Error(`DEMO_HISTORY_DAYS must be a number of days (0-366), got "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const root = path.resolve(__dirname, '..');
  const seed = env.SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be "demo" or "none", got "${seed}"`);
  return {
    port: int('PORT', env.PORT, 8000),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    jt808Port: int('JT808_PORT', env.JT808_PORT, 6808),
    jt1078MediaPort: int('JT1078_MEDIA_PORT', env.JT1078_MEDIA_PORT, 6078),
    jt1078MediaHost: env.JT1078_MEDIA_HOST || '127.0.0.1',
    simulate: count('SIMULATE', env.SIMULATE, 8),
    consoleDir: path.resolve(env.CONSOLE_DIR || path.join(root, 'dist')),
    seed,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS) > 0 ? Number(env.TOKEN_TTL_HOURS) : 12,
    logLevel: env.LOG_LEVEL || 'info',
    mapTileUrl: tileUrl(env.MAP_TILE_URL),
    mapTileAttribution: tileAttribution(env),
    mapTileCoords: tileCoords(env.MAP_TILE_COORDS),
    positionRetentionMonths: retentionMonths(env.POSITION_RETENTION_MONTHS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    jt808Limits: jt808Limits(env),
    natsUrl: natsUrl(env.NATS_URL),
    gatewayWorkers: optionalCount('GATEWAY_WORKERS', env.GATEWAY_WORKERS, 256) ?? 1,
    gatewayWorker: optionalCount('GATEWAY_WORKER', env.GATEWAY_WORKER, 256),
    jt808Checksum: checksumPolicyFromEnv(env.JT808_BAD_CHECKSUM, env.JT808_BAD_CHECKSUM_MODELS),
    jt808Safety: safetyPolicyFromEnv(env.JT808_SAFETY_STANDARD, env.JT808_SAFETY_STANDARD_MODELS),
    jt808Attachments: attachmentConfig(env),
    fleetTimeZone: timeZone(env.FLEET_TIMEZONE),
    demoHistoryDays: historyDays(env.DEMO_HISTORY_DAYS),
    smtp: smtpConfig(env),
    webhookAllow: parseTargetAllow(env.WEBHOOK_ALLOW),
    forwardAllow: parseTargetAllow(env.FORWARD_ALLOW, 'FORWARD_ALLOW'),
    metricsAccess: parseMetricsAccess(env.METRICS_TOKEN, env.METRICS_ALLOW),
    obdAlarmTypes: obdAlarmTypes(env.OBD_ALARM_TYPES),
    deriveThread: deriveThread(env.DERIVE_THREAD, env.DATABASE_URL || undefined),
    databasePrepare: databasePrepare(env.DATABASE_PREPARE),
    geocode: geocodeConfig(env),
  };
}
