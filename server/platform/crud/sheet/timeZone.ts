import type { FastifyRequest } from 'fastify';

/** The zone the console shows times in when the caller names none (the product's home). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

const isZone = (z: string) => {
  try {
    formatter(z);
    return true;
  } catch {
    return false;
  }
};

/** The caller's IANA time zone (`X-Time-Zone`, sent by the console), else the default. */
export function requestTimeZone(req: FastifyRequest): string {
  const z = req.headers['x-time-zone'];
  return typeof z === 'string' && z.length <= 64 && isZone(z) ? z : DEFAULT_TIME_ZONE;
}

function wall(d: Date, zone: string): number[] {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) => Number(parts[k]));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the console shows it in `zone`: `YYYY-MM-DD HH:mm:ss`. */
export function formatInZone(d: Date, zone: string): string {
  const [y, mo, day, h, mi, s] = wall(d, zone);
  return `${y}-${pad(mo)}-${pad(day)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/** A wall-clock time in `zone` → the instant (ISO 8601 UTC); the offset is looked up at that instant. */
export function wallTimeToIso(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: string): string {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsetAt = (t: number) => {
    const [yy, mm, dd, hh, nn, ss] = wall(new Date(t), zone);
    return Date.UTC(yy, mm - 1, dd, hh, nn, ss) - t;
  };
  let t = asUtc - offsetAt(asUtc);
  t = asUtc - offsetAt(t);
  return new Date(t).toISOString();
}

const WALL_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A date-time cell as the user meant it: text such as `2026-11-23 20:05:11` or an Excel date cell
 * (which carries wall-clock fields, no zone) is read in the user's zone; ISO text with a zone or
 * anything else passes through for the schema to judge.
 */
export function dateTimeIn(v: unknown, zone: string): unknown {
  if (v instanceof Date)
    return wallTimeToIso(
      v.getUTCFullYear(),
      v.getUTCMonth() + 1,
      v.getUTCDate(),
      v.getUTCHours(),
      v.getUTCMinutes(),
      v.getUTCSeconds(),
      zone,
    );
  const m = typeof v === 'string' ? WALL_TEXT.exec(v.trim()) : null;
  return m ? wallTimeToIso(+m[1], +m[2], +m[3], +m[4], +m[5], +(m[6] ?? 0), zone) : v;
}
