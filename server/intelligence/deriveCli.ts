/**
 * npm run derive -- --vehicle <id|all> --from <date> --to <date>
 *
 * Rebuilds the derived rows (every deriver of the engine, engine.ts: trips, stops, fuel events, the
 * ledger, the replay's levels, alarms, behaviour) of one vehicle or all of them over a window,
 * widened to whole trips, stops and alarms. A rebuild announces no alarm, and keeps every handled
 * one (alarms/store.ts).
 * Dates are local days in FLEET_TIMEZONE (`--to` inclusive) or ISO instants. Uses DATABASE_URL /
 * DATA_DIR like the server; safe to run while it runs (each window is one transaction).
 */

import { loadConfig } from '../config';
import { openDatabase } from '../platform/db/database';
import { migrate } from '../platform/db/migrate';
import { rebuildDerived } from './rebuild';
import { dayStart, nextDay } from './localDay';

const USAGE = 'usage: npm run derive -- --vehicle <id|all> --from <YYYY-MM-DD|ISO time> --to <YYYY-MM-DD|ISO time>\n';

export interface DeriveArgs {
  vehicle: number | 'all';
  from: number;
  to: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The arguments, or an error message. */
export function parseDeriveArgs(argv: string[], timeZone: string): DeriveArgs | string {
  const named = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!key?.startsWith('--') || value === undefined) return `unexpected argument: ${key ?? ''}`;
    named.set(key.slice(2), value);
  }
  for (const k of named.keys()) if (!['vehicle', 'from', 'to'].includes(k)) return `unknown option --${k}`;
  const v = named.get('vehicle');
  if (!v) return 'missing --vehicle';
  const vehicle = v === 'all' ? 'all' : Number(v);
  if (vehicle !== 'all' && !(Number.isInteger(vehicle) && vehicle > 0)) return `bad --vehicle: ${v}`;
  const instant = (s: string | undefined, end: boolean): number | null => {
    if (!s) return null;
    if (DAY.test(s) && !Number.isNaN(Date.parse(s))) return dayStart(end ? nextDay(s) : s, timeZone);
    const t = Date.parse(s);
    return Number.isNaN(t) ? null : t;
  };
  const from = instant(named.get('from'), false);
  const to = instant(named.get('to'), true);
  if (from === null) return `bad or missing --from: ${named.get('from') ?? ''}`;
  if (to === null) return `bad or missing --to: ${named.get('to') ?? ''}`;
  if (to <= from) return '--to must be after --from';
  return { vehicle, from, to };
}

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const args = parseDeriveArgs(argv, config.fleetTimeZone);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n${USAGE}`);
    return 2;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, prepare: config.databasePrepare });
  try {
    await migrate(database);
    const started = Date.now();
    const done = await rebuildDerived(database.db, config.fleetTimeZone, args, { obdAlarmTypes: config.obdAlarmTypes });
    process.stdout.write(
      `derived ${done.vehicles} vehicle(s), ${done.positions} positions, ${new Date(args.from).toISOString()} – ${new Date(args.to).toISOString()}, in ${Date.now() - started} ms\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    },
  );
}
