import path from 'node:path';

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
  /** Simulated demo terminals `npm start` runs against its own gateway (0 = none). */
  simulate: number;
  /** Built console served at /; absent → API only. */
  consoleDir: string;
  /** 'demo' seeds demo organisations, vehicles, terminals and drivers on an empty database. */
  seed: 'demo' | 'none';
  tokenTtlHours: number;
  logLevel: string;
  /**
   * Map tile URL template ({z}/{x}/{y}) the console's maps load; absent → no map tiles at all and
   * every request stays on this server.
   */
  mapTileUrl?: string;
  /** Coordinate system of those tiles: WGS84 (OpenStreetMap and most) or GCJ02 (Chinese providers). */
  mapTileCoords: 'WGS84' | 'GCJ02';
  /**
   * Months of positions and OBD records kept besides the current month; older month partitions are
   * dropped whole. Null keeps everything.
   */
  positionRetentionMonths: number | null;
}

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

/** An http(s) URL or a path on this server, with the {z}, {x} and {y} placeholders. */
function tileUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const absolute = /^https?:\/\/[^\s/?#]+\/\S*$/.test(value);
  const local = /^\/(?!\/)\S*$/.test(value);
  if ((!absolute && !local) || !['{z}', '{x}', '{y}'].every((p) => value.includes(p))) {
    throw new Error(`MAP_TILE_URL must be an http(s) URL or a path with {z}, {x} and {y}, got "${value}"`);
  }
  return value;
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
  if (!/^\d+$/.test(value) || n > 1200) throw new Error(`POSITION_RETENTION_MONTHS must be a number of months (1-1200, or 0 to keep everything), got "${value}"`);
  return n === 0 ? null : n;
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
    simulate: count('SIMULATE', env.SIMULATE, 8),
    consoleDir: path.resolve(env.CONSOLE_DIR || path.join(root, 'dist')),
    seed,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS) > 0 ? Number(env.TOKEN_TTL_HOURS) : 12,
    logLevel: env.LOG_LEVEL || 'info',
    mapTileUrl: tileUrl(env.MAP_TILE_URL),
    mapTileCoords: tileCoords(env.MAP_TILE_COORDS),
    positionRetentionMonths: retentionMonths(env.POSITION_RETENTION_MONTHS),
  };
}
