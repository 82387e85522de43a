/**
 * The cost of a pass with an alarm open for a long time (DESIGN.md: cost flat in history). One
 * vehicle reports an hour's pattern (ten minutes' drive, fifty parked) with a trouble code, the
 * terminal's theft bit and a weak battery (under a Low policy) on every report, for 1, 7 and 30
 * days, uploaded as blind-area batches and derived (every deriver of the engine, alarms and
 * behaviour included). Then 20 live reports, each
 * derived before the next: per pass, the positions of the pass's window and those the alarm deriver
 * was handed, the milliseconds of
 * the whole pass and of the alarm deriver (medians). With the open alarms carried into each pass
 * (alarms/carry.ts) all three stay flat; reaching back to the alarms' begin, they grow with the days.
 *
 * Three more vehicles, each alone under its own policy (BENCH_OPEN picks them, default all four):
 * `fatigue`, driving 35 minutes and stopping 15 for the days under a Fatigue policy (one Fatigue
 * open all along), live reports driving on; `parked`, a drive then parked with the ignition off
 * for the days, heartbeats every 10 minutes, under a Trail policy, live heartbeats; `carried`, the
 * ignition off for the days while carried (every hour 50 minutes on the move, 10 standing: a
 * towing an hour) under a Trail policy, live reports moving on.
 *
 *   npx tsx bench/alarm-open-cost.bench.ts   (BENCH_BACKENDS=pglite,postgres, BENCH_DAYS=1,7,30, BENCH_OPEN=word,fatigue,parked,carried)
 */

import { sql } from 'kysely';
import { ScriptedDay } from '../tests/server/intelligence/alarms/scriptedDay';
import { benchEngine, benchGateway, median } from './telematics/setup';
import { runAsScript, type BenchResult } from './lib';

const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite').split(',') as Array<'pglite' | 'postgres'>;
const DAYS = (process.env.BENCH_DAYS || '1,7,30').split(',').map(Number);
type Open = 'word' | 'fatigue' | 'parked' | 'carried';
const OPEN = (process.env.BENCH_OPEN || 'word,fatigue,parked,carried').split(',') as Open[];
const LIVE = 20;
const STOLEN_BIT = 26;
const VOLTS = 11.4;
const HOME = { latitude: 31.2, longitude: 121.4 };

/** Per vehicle: its policies, its history over the days and its live reports after, and the alarm types it keeps open. */
const SCRIPTS: Record<
  Open,
  { policies: string[]; history(day: ScriptedDay, days: number): void; live(day: ScriptedDay): void; open: string[] }
> = {
  word: {
    policies: ['Fault', 'Low'],
    history: (day, days) => {
      for (let h = 0; h < days * 24; h++)
        day
          .step(10 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270, dtcs: ['P0301'], alarmBits: [STOLEN_BIT], volts: VOLTS })
          .step(50 * 60, 0, { acc: false, every: 600, dtcs: ['P0301'], alarmBits: [STOLEN_BIT], volts: VOLTS });
    },
    live: (day) => void day.step(LIVE * 60, 40, { every: 60, dtcs: ['P0301'], alarmBits: [STOLEN_BIT], volts: VOLTS }),
    open: ['Fault', 'Stolen', 'Low'],
  },
  fatigue: {
    policies: ['Fatigue'],
    history: (day, days) => {
      for (let h = 0; h < days * 24; h++)
        day.step(35 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270 }).step(15 * 60, 0, { acc: false, every: 300 });
    },
    live: (day) => void day.step(LIVE * 60, 40, { every: 60 }),
    open: ['Fatigue'],
  },
  parked: {
    policies: ['Trail'],
    history: (day, days) => void day.step(30 * 60, 40, { every: 60 }).step(days * 86_400, 0, { acc: false, every: 600 }),
    live: (day) => void day.step(LIVE * 120, 0, { acc: false, every: 120 }),
    open: [],
  },
  carried: {
    policies: ['Trail'],
    history: (day, days) => {
      day.step(30 * 60, 40, { every: 60 });
      for (let h = 0; h < days * 24; h++)
        day.step(50 * 60, 40, { acc: false, every: 120, heading: h % 2 ? 90 : 270 }).step(10 * 60, 0, { acc: false, every: 300 });
    },
    live: (day) => void day.step(LIVE * 60, 40, { acc: false, every: 60 }),
    open: ['Trail'],
  },
};

async function once(kind: 'pglite' | 'postgres', days: number, open: Open): Promise<BenchResult> {
  const g = await benchGateway(kind, 1);
  const db = g.database.db;
  const script = SCRIPTS[open];
  for (const type of script.policies)
    await sql`INSERT INTO policy (org_id, name, alarm_type, enabled, threshold, duration_minutes)
      SELECT id, ${`bench ${type}`}, ${type}, true, ${type === 'Low' ? 11.8 : null}, ${type === 'Low' ? 5 : null} FROM organisation WHERE parent_id IS NULL`.execute(
      db,
    );
  const run = await benchEngine(g, kind);
  const { derivation, terminal } = run;
  try {
    await terminal.connect();
    const start = Date.now() - days * 86_400_000 - 3_600_000;
    const day = new ScriptedDay(start, HOME);
    script.history(day, days);
    for (let i = 0; i < day.reports.length; i += 200) terminal.reportBatch(day.reports.slice(i, i + 200), true);
    await terminal.drain(600_000);
    await g.writer.flush();
    await derivation.idle();
    const passes: Array<{ positions: number; alarmPositions: number; ms: number; alarmsMs: number }> = [];
    const after = new ScriptedDay(day.time, day.position);
    script.live(after);
    const live = after.reports;
    for (const r of live) {
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
    }>`SELECT count(*)::int AS n FROM alarm WHERE end_time IS NULL AND type = ANY(${script.open}::text[])`.execute(db);
    return {
      name: `alarm.openCost.${kind}, ${open === 'word' ? '' : `${open} `}open ${days} d`,
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
  for (const open of OPEN) for (const kind of BACKENDS) for (const days of DAYS) out.push(await once(kind, days, open));
  return out;
}

if (require.main === module) runAsScript(run);
