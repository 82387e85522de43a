/**
 * The cost of a pass with an alarm open for a long time (DESIGN.md: cost flat in history). Cases
 * (BENCH_CASES, all by default), each for 1, 7 and 30 (BENCH_DAYS) days of history, uploaded as
 * blind-area batches and derived (every deriver of the engine, alarms and behaviour included), then
 * 20 live reports, each derived before the next:
 * - `codes`: an hour's pattern (ten minutes' drive, fifty parked) with a trouble code, the
 *   terminal's theft bit and a weak battery (under a Low policy) on every report;
 * - `skewing`: the same pattern under a Skewing policy, never near its task's route;
 * - `fence`: speeding over a fence's limit for 1, 7 and 30 hours, one trip (a run cannot outlast
 *   its trip: it ends where the vehicle stops);
 * - `clock`: the pattern, then a stop whose terminal went quiet, the clock's StopLongTime open for
 *   the days, then the terminal reporting again from the stop;
 * - `fatigue`: driving 35 minutes and stopping 15 for the days under a Fatigue policy (one Fatigue
 *   open all along), live reports driving on;
 * - `parked`: a drive, then parked with the ignition off for the days, heartbeats every 10 minutes,
 *   under a Trail policy, live heartbeats (nothing open: the pass's window holds the whole stop);
 * - `carried`: the ignition off for the days while carried (every hour 50 minutes on the move, 10
 *   standing: a towing an hour) under a Trail policy, live reports moving on.
 * Per pass (medians): the positions of the pass's window and those the alarm deriver was handed,
 * the milliseconds of the whole pass and of the alarm deriver. With the open alarms carried into
 * each pass (alarms/carry.ts) they stay flat; reaching back to the alarms' begin, they grow with the
 * days, up to what the trips' own window reads (the trip a vehicle is in, and the one before); the
 * alarm deriver is handed its own widening of a pass the trips changed nothing before (pipeline.ts).
 *
 *   npx tsx bench/alarm-open-cost.bench.ts   (BENCH_BACKENDS=pglite,postgres, BENCH_DAYS=1,7,30, BENCH_CASES=codes,skewing,fence,clock,fatigue,parked,carried)
 */

import { sql } from 'kysely';
import { stopAlarms } from '../server/intelligence/alarms/stopClock';
import type { LocationInput } from '../server/telematics/jt808/codec';
import { ScriptedDay, type StepOptions } from '../tests/server/intelligence/alarms/scriptedDay';
import { benchEngine, benchGateway, median, type BenchGateway } from './telematics/setup';
import { runAsScript, type BenchResult } from './lib';

const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite').split(',') as Array<'pglite' | 'postgres'>;
const DAYS = (process.env.BENCH_DAYS || '1,7,30').split(',').map(Number);
const CASES = (process.env.BENCH_CASES || 'codes,skewing,fence,clock,fatigue,parked,carried').split(',') as CaseName[];
const LIVE = 20;
const STOLEN_BIT = 26;
const VOLTS = 11.4;
const HOME = { latitude: 31.2, longitude: 121.4 };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type CaseName = 'codes' | 'skewing' | 'fence' | 'clock' | 'fatigue' | 'parked' | 'carried';
type Db = BenchGateway['database']['db'];

/** One case: its policies and settings, its history, and (after the history is derived) its live reports. */
interface Case {
  /** Types of the alarm kept open. */
  types: string[];
  /** History of `n` (days, or hours for `fence`), ending about now. */
  history(db: Db, vehicleId: number, n: number): Promise<ScriptedDay>;
  /** The live reports, once the history is derived. */
  live(db: Db, history: ScriptedDay, n: number): Promise<LocationInput[]>;
}

const policy = (db: Db, name: string, type: string, threshold: number | null, minutes: number | null) =>
  sql`INSERT INTO policy (org_id, name, alarm_type, enabled, threshold, duration_minutes)
    SELECT id, ${name}, ${type}, true, ${threshold}, ${minutes} FROM organisation WHERE parent_id IS NULL`.execute(db);

/** `hours` of the hour's pattern (ten minutes' drive, fifty parked) from `start`, with these report options. */
function pattern(start: number, hours: number, o: StepOptions = {}): ScriptedDay {
  const day = new ScriptedDay(start, HOME);
  for (let h = 0; h < hours; h++)
    day.step(10 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270, ...o }).step(50 * 60, 0, { acc: false, every: 600, ...o });
  return day;
}

/** Live reports driving on from where the history ended. */
const driving = (day: ScriptedDay, o: StepOptions = {}) =>
  new ScriptedDay(day.time, day.position).step(LIVE * 60, 40, { every: 60, ...o }).reports;

const CASE: Record<CaseName, Case> = {
  codes: {
    types: ['Fault', 'Stolen', 'Low'],
    async history(db, _vehicleId, days) {
      await policy(db, 'bench fault', 'Fault', null, null);
      // A weak battery all along: the policy's Low run is open as long as the code and the bit.
      await policy(db, 'bench low', 'Low', 11.8, 5);
      return pattern(Date.now() - days * DAY - HOUR, days * 24, { dtcs: ['P0301'], alarmBits: [STOLEN_BIT], volts: VOLTS });
    },
    live: async (_db, day) => driving(day, { dtcs: ['P0301'], alarmBits: [STOLEN_BIT], volts: VOLTS }),
  },
  skewing: {
    types: ['Skewing'],
    async history(db, vehicleId, days) {
      await policy(db, 'bench skewing', 'Skewing', 1000, 5);
      const start = Date.now() - days * DAY - HOUR;
      // A route 20 km north of the vehicle's beat, planned for the whole time.
      const line = [
        [HOME.longitude - 0.5, HOME.latitude + 0.18],
        [HOME.longitude + 0.5, HOME.latitude + 0.18],
      ];
      await sql`INSERT INTO task (org_id, name, vehicle_id, route_line, start_time, end_time, status)
        SELECT org_id, 'bench route', id, ${JSON.stringify(line)}::jsonb, ${new Date(start - HOUR)}, ${new Date(start + 60 * DAY)}, 'pending'
        FROM vehicle WHERE id = ${vehicleId}`.execute(db);
      return pattern(start, days * 24);
    },
    live: async (_db, day) => driving(day),
  },
  fence: {
    types: ['OverSpeed'],
    async history(db, vehicleId, hours) {
      // A ring road's zone 20 km round home, 60 km/h: driven at 90, east and west by turns.
      const f = await sql<{ id: number }>`
        INSERT INTO fence (org_id, name, fence_type, geometry, speed_limit, dwell_seconds)
        SELECT org_id, 'bench zone', 'circle', ${JSON.stringify({ center: [HOME.longitude, HOME.latitude], radius: 20_000 })}::jsonb, 60, 30
        FROM vehicle WHERE id = ${vehicleId} RETURNING id`.execute(db);
      await sql`INSERT INTO vehicle_fence (vehicle_id, fence_id) VALUES (${vehicleId}, ${f.rows[0].id})`.execute(db);
      const day = new ScriptedDay(Date.now() - hours * HOUR - HOUR, HOME).step(120, 40, { every: 30 });
      for (let k = 0; k < hours * 6; k++) day.step(10 * 60, 90, { every: 120, heading: k % 2 ? 270 : 90 });
      return day;
    },
    // Ten minutes east and ten back: still inside the zone, still speeding.
    live: async (_db, day) =>
      new ScriptedDay(day.time, day.position)
        .step((LIVE / 2) * 60, 90, { every: 60, heading: 90 })
        .step((LIVE / 2) * 60, 90, { every: 60, heading: 270 }).reports,
  },
  clock: {
    types: ['StopLongTime'],
    async history(db, _vehicleId, days) {
      await policy(db, 'bench stop', 'StopLongTime', null, 60);
      // The pattern, a drive, and fifty minutes parked, its last report a minute ago (the clock
      // takes only a stop known from live reports); then quiet.
      const day = pattern(Date.now() - days * DAY + HOUR - 44 * MINUTE, days * 24 - 1);
      return day.step(3 * 60, 40, { every: 60 }).step(50 * 60, 0, { acc: false, every: 600 });
    },
    async live(db, day, days) {
      // The clock, the days later: the stop is long (stopClock.ts); the terminal reports again, still parked.
      const back = day.time + days * DAY;
      const raised = await stopAlarms(db, back);
      if (raised.length !== 1) throw new Error(`the clock raised ${raised.length} stops`);
      return new ScriptedDay(back, day.position).step(LIVE * 60, 0, { acc: false, every: 60 }).reports;
    },
  },
  fatigue: {
    types: ['Fatigue'],
    async history(db, _vehicleId, days) {
      await policy(db, 'bench fatigue', 'Fatigue', null, null);
      const day = new ScriptedDay(Date.now() - days * DAY - HOUR, HOME);
      for (let h = 0; h < days * 24; h++)
        day.step(35 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270 }).step(15 * 60, 0, { acc: false, every: 300 });
      return day;
    },
    live: async (_db, day) => driving(day),
  },
  parked: {
    types: [],
    async history(db, _vehicleId, days) {
      await policy(db, 'bench trail', 'Trail', null, null);
      return new ScriptedDay(Date.now() - days * DAY - HOUR, HOME)
        .step(30 * 60, 40, { every: 60 })
        .step(days * 86_400, 0, { acc: false, every: 600 });
    },
    live: async (_db, day) => new ScriptedDay(day.time, day.position).step(LIVE * 120, 0, { acc: false, every: 120 }).reports,
  },
  carried: {
    types: ['Trail'],
    async history(db, _vehicleId, days) {
      await policy(db, 'bench trail', 'Trail', null, null);
      const day = new ScriptedDay(Date.now() - days * DAY - HOUR, HOME).step(30 * 60, 40, { every: 60 });
      for (let h = 0; h < days * 24; h++)
        day.step(50 * 60, 40, { acc: false, every: 120, heading: h % 2 ? 90 : 270 }).step(10 * 60, 0, { acc: false, every: 300 });
      return day;
    },
    live: async (_db, day) => driving(day, { acc: false }),
  },
};

async function once(kind: 'pglite' | 'postgres', name: CaseName, n: number): Promise<BenchResult> {
  const g = await benchGateway(kind, 1);
  const db = g.database.db;
  const c = CASE[name];
  const vehicleId = (
    await sql<{
      id: number;
    }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${g.phones[0]}`.execute(db)
  ).rows[0].id;
  const day = await c.history(db, vehicleId, n);
  const run = await benchEngine(g, kind);
  const { derivation, terminal } = run;
  try {
    await terminal.connect();
    for (let i = 0; i < day.reports.length; i += 200) terminal.reportBatch(day.reports.slice(i, i + 200), true);
    await terminal.drain(600_000);
    await g.writer.flush();
    await derivation.idle();
    const passes: Array<{ positions: number; alarmPositions: number; ms: number; alarmsMs: number }> = [];
    for (const r of await c.live(db, day, n)) {
      const before = await derivation.stats();
      // A commit before positionsHanded handed the alarm deriver the whole window (positionsDerived).
      const alarmPositions = (stats: typeof before) => stats.positionsHanded?.alarms ?? stats.positionsDerived;
      const was = { positions: before.positionsDerived, alarmPositions: alarmPositions(before), alarms: before.phaseMs.alarms ?? 0 };
      const t0 = performance.now();
      terminal.report(r);
      await terminal.drain(60_000);
      await g.writer.flush();
      await derivation.idle();
      const after = await derivation.stats();
      passes.push({
        positions: after.positionsDerived - was.positions,
        alarmPositions: alarmPositions(after) - was.alarmPositions,
        ms: performance.now() - t0,
        alarmsMs: (after.phaseMs.alarms ?? 0) - was.alarms,
      });
    }
    const kept = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM alarm WHERE vehicle_id = ${vehicleId} AND type = ANY(${c.types}::text[])
      AND begin_time < ${new Date(day.reports[day.reports.length - 1].time as number)} AND end_time IS NULL`.execute(db);
    return {
      name: `alarm.openCost.${kind}, ${name}, open ${n} ${name === 'fence' ? 'h' : 'd'}`,
      historyReports: day.reports.length,
      openAlarms: kept.rows[0].n,
      positionsPerPass: median(passes.map((p) => p.positions)),
      alarmPositionsPerPass: median(passes.map((p) => p.alarmPositions)),
      passMs: +median(passes.map((p) => p.ms)).toFixed(1),
      alarmDeriverMs: +median(passes.map((p) => p.alarmsMs)).toFixed(1),
    };
  } finally {
    await run.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) for (const name of CASES) for (const n of DAYS) out.push(await once(kind, name, n));
  return out;
}

if (require.main === module) runAsScript(run);
