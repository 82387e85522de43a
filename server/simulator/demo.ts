/** The small demo fleet `npm start` runs against its own gateway when the demo data is seeded. */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { seedDemoSchedules } from '../seed/demoSchedules';
import { demoFixtures } from '../seed/fixtures';
import type { Jt808Version } from '../telematics/jt808/codec';
import type { FleetStarter } from '../telematics';
import { createMonthPartition, MONTHLY_TABLES, monthOf } from '../telematics/store/partitions';
import { UNKNOWN_CARD_TERMINAL, UNKNOWN_DEMO_CARD } from './cards';
import { Fleet, type FleetTerminal } from './fleet';
import { playHistory } from './history';
import { CITIES } from './vehicle';

const CITY_OF_TEAM: Record<string, string> = { 'HD-SH': 'shanghai', 'HD-HZ': 'hangzhou', 'HN-SZ': 'shenzhen' };

/**
 * Up to `count` demo terminals still in the database, alternating between the teams' cities, each
 * starting where its vehicle was last seen (the history's end, or the last run's before a restart):
 * a run that began elsewhere made a jump of hundreds of kilometres between two reports.
 */
export async function demoFleet(db: Kysely<DB>, count: number): Promise<FleetTerminal[]> {
  const numbers = demoFixtures.terminals.map((t) => t.terminalNo);
  if (!count || !numbers.length) return [];
  // The codes the demo terminals were issued on an earlier start: registering again is refused.
  const r = await sql<{
    terminal_no: string;
    protocol: string | null;
    team: string | null;
    auth_code: string | null;
    latitude: number | null;
    longitude: number | null;
    mileage_km: number | null;
    fuel_l: number | null;
    card_no: string | null;
    driver_name: string | null;
  }>`
    SELECT t.terminal_no, t.protocol, o.code AS team, l.auth_code, s.latitude, s.longitude, s.mileage_km, s.fuel_l,
           d.card_no, d.name AS driver_name
    FROM terminal t LEFT JOIN vehicle v ON v.terminal_id = t.id LEFT JOIN organisation o ON o.id = v.org_id
    LEFT JOIN driver d ON d.id = v.driver_id
    LEFT JOIN terminal_link l ON l.terminal_id = t.id LEFT JOIN vehicle_state s ON s.vehicle_id = v.id
    WHERE t.terminal_no IN (${sql.join(numbers)}) AND t.in_use IS NOT FALSE`.execute(db);
  const byTeam = new Map<string, typeof r.rows>();
  for (const row of r.rows.sort((a, b) => a.terminal_no.localeCompare(b.terminal_no))) {
    const team = row.team ?? '';
    byTeam.set(team, [...(byTeam.get(team) ?? []), row]);
  }
  const out: FleetTerminal[] = [];
  const queues = [...byTeam.values()];
  for (let i = 0; out.length < count && queues.some((q) => q.length); i++) {
    const row = queues[i % queues.length].shift();
    if (!row) continue;
    out.push({
      phone: row.terminal_no,
      version: (row.protocol === '2019' ? 2019 : 2013) as Jt808Version,
      city: CITIES.find((c) => c.name === CITY_OF_TEAM[row.team ?? '']),
      authCode: row.auth_code ?? undefined,
      start:
        row.latitude === null || row.longitude === null
          ? undefined
          : { latitude: row.latitude, longitude: row.longitude, mileageKm: row.mileage_km, fuelL: row.fuel_l },
      // The vehicle's usual driver carries their card; one vehicle's driver a card the platform does not know.
      card:
        row.terminal_no === numbers[UNKNOWN_CARD_TERMINAL]
          ? UNKNOWN_DEMO_CARD
          : row.card_no
            ? { cardNo: row.card_no, name: row.driver_name ?? '' }
            : undefined,
    });
  }
  return out;
}

/** app_setting key marking the demo history as played, so a restart does not play it again. */
export const DEMO_HISTORY_KEY = 'demo.historyPlayed';

export interface DemoFleetOptions {
  /** Demo terminals to run (SIMULATE). */
  count: number;
  /** Days of history the terminals upload first, on a database that has not had it (DEMO_HISTORY_DAYS; 0 skips). */
  historyDays?: number;
}

/**
 * The demo fleet as telematics runs it: up to `count` demo terminals that first upload their past
 * days through the gateway as blind-area batches (once per database), then report every 10 s. Not
 * awaited beyond building it: the API must not wait for the history or the fleet to connect.
 */
export function demoFleetStarter(opts: DemoFleetOptions): FleetStarter {
  return async (gateway, { db, log, derived }) => {
    const terminals = await demoFleet(db, opts.count);
    if (!terminals.length) return null;
    let live: Fleet | null = null;
    let stopping = false;
    const days = opts.historyDays ?? 0;
    const played = days > 0 && (await db.selectFrom('app_setting').select('value').where('key', '=', DEMO_HISTORY_KEY).executeTakeFirst());
    const history = async () => {
      if (days <= 0 || played) return;
      const started = Date.now();
      log.info({ terminals: terminals.length, days }, 'demo history: playing through the gateway');
      // Past months get their partitions first, as if the platform had been running then.
      for (let m = monthOf(new Date(started - (days + 1) * 86_400_000)); m < monthOf(new Date(started)); m++) {
        for (const table of MONTHLY_TABLES) await createMonthPartition(db, table, m);
      }
      const { positions } = await playHistory({
        ...gateway,
        terminals,
        days,
        stopped: () => stopping,
        log: (p) => log.info({ ...p, elapsedS: Math.round((Date.now() - started) / 1000) }, 'demo history: day uploaded'),
      });
      await derived?.();
      // The team pages join schedules with what was driven: schedule the drivers on the days their vehicle drove.
      const schedules = await seedDemoSchedules(db);
      log.info({ schedules }, 'demo history: schedules added');
      await db
        .insertInto('app_setting')
        .values({ key: DEMO_HISTORY_KEY, value: new Date().toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      log.info({ positions, elapsedS: Math.round((Date.now() - started) / 1000) }, 'demo history: complete and derived');
    };
    // The history first (the same terminals upload their past), then the fleet reports live. The
    // live fleet reads the terminals again: the history registered them, and a registered terminal
    // authenticates with its code (registering twice is refused).
    const reportLive = async () => {
      if (stopping) return;
      live = new Fleet({ ...gateway, terminals: await demoFleet(db, opts.count), intervalMs: 10_000, safetyChance: 1 / 360 });
      await live.start();
    };
    void history()
      .catch((err: unknown) => log.warn({ err }, 'demo history failed'))
      .then(reportLive)
      .then(
        () => log.info({ terminals: terminals.length }, 'demo fleet reporting'),
        (err: unknown) => log.warn({ err }, 'demo fleet failed to start'),
      );
    return {
      async stop(graceMs: number) {
        stopping = true;
        await live?.stop(graceMs);
      },
    };
  };
}
