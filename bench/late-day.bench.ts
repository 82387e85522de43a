/**
 * A late day (issue budget: re-derived and its alarms announced in < 2 s): one vehicle is live
 * today (an hour of reports, derived), then yesterday's whole day comes as blind-area uploads,
 * 8,640 reports, one every 10 s: a morning drive with speeding and idling, a day parked, an evening
 * drive, the night parked. Measured from the first upload sent to the last of that day's alarms
 * announced (every deriver of the engine, alarms and behaviour included), and until the pipeline
 * is idle; with the alarms announced and the reports, passes and positions derived.
 *
 *   npx tsx bench/late-day.bench.ts   (BENCH_BACKENDS=pglite,postgres, BENCH_RUNS=3, BENCH_BATCH=100)
 */

import { sql } from 'kysely';
import type { RaisedAlarm } from '../server/intelligence/alarms/store';
import { ScriptedDay } from '../tests/server/intelligence/alarms/scriptedDay';
import { dayStart, localDay } from '../server/intelligence/localDay';
import { benchEngine, benchGateway, median } from './telematics/setup';
import { runAsScript, type BenchResult } from './lib';

const BACKENDS = (process.env.BENCH_BACKENDS || 'pglite').split(',') as Array<'pglite' | 'postgres'>;
const RUNS = Number(process.env.BENCH_RUNS || 3);
/** Reports per 0x0704 upload. */
const BATCH = Number(process.env.BENCH_BATCH || 100);
const HOME = { latitude: 31.2, longitude: 121.4 };
const ZONE = 'Asia/Shanghai';

/** Yesterday from its local midnight to the next: 8,640 reports, one every 10 s. */
function yesterday(midnight: number, next: number): ScriptedDay {
  const day = new ScriptedDay(midnight, HOME)
    .step(7 * 3_600, 0, { acc: false }) // the night, parked
    .step(5 * 60, 0, { acc: true }) // warming up: Idle
    .step(30 * 60, 60, { heading: 90 })
    .step(5 * 60, 110) // speeding: OverSpeed
    .step(20 * 60, 50)
    .step(9 * 3_600, 0, { acc: false }) // the working day, parked
    .step(3 * 60, 0, { acc: true })
    .step(55 * 60, 55, { heading: 270 })
    .step(2 * 60, 105);
  return day.step((next - day.time) / 1000, 0, { acc: false }); // the evening and night
}

async function once(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  const g = await benchGateway(kind, 1);
  const db = g.database.db;
  for (const [name, type, threshold, minutes, params] of [
    ['bench idle', 'Idle', null, 3, null],
    ['bench speed', 'OverSpeed', 100, null, { durationSeconds: 30 }],
    ['bench ignition', 'FireOn', null, null, null],
    ['bench stop', 'StopLongTime', null, 240, null],
  ] as const)
    await sql`INSERT INTO policy (org_id, name, alarm_type, enabled, threshold, duration_minutes, params)
      SELECT id, ${name}, ${type}, true, ${threshold}, ${minutes}, ${params === null ? null : JSON.stringify(params)}::jsonb
      FROM organisation WHERE parent_id IS NULL`.execute(db);
  const announced: Array<{ at: number; alarm: RaisedAlarm }> = [];
  const run = await benchEngine(g, kind, (a) => announced.push(...a.map((alarm) => ({ at: performance.now(), alarm }))));
  const { derivation, terminal } = run;
  try {
    await terminal.connect();
    // Yesterday from its local midnight.
    const todayMidnight = dayStart(localDay(Date.now(), ZONE), ZONE);
    const midnight = dayStart(localDay(todayMidnight - 1, ZONE), ZONE);
    const live = new ScriptedDay(Math.max(todayMidnight, Date.now() - 3_600_000), HOME).step(3_000, 40, { acc: true, every: 30 }).reports;
    for (const r of live) terminal.report(r);
    await terminal.drain(60_000);
    await g.writer.flush();
    await derivation.idle();
    const before = await derivation.stats();
    const was = { positions: before.positionsDerived, batches: before.batches };
    announced.length = 0;
    const day = yesterday(midnight, todayMidnight).reports;
    const t0 = performance.now();
    for (let i = 0; i < day.length; i += BATCH) terminal.reportBatch(day.slice(i, i + BATCH), true);
    await terminal.drain(600_000);
    await g.writer.flush();
    await derivation.idle();
    const idleMs = performance.now() - t0;
    const after = await derivation.stats();
    const ofDay = announced.filter((a) => a.alarm.begin >= midnight && a.alarm.begin < todayMidnight);
    const stored = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM alarm WHERE begin_time >= ${new Date(midnight)} AND begin_time < ${new Date(todayMidnight)}`.execute(
      db,
    );
    return {
      name: `alarm.lateDay.${kind}`,
      reports: day.length,
      alarmsStored: stored.rows[0].n,
      alarmsAnnounced: ofDay.length,
      lastAnnouncedMs: ofDay.length ? +(Math.max(...ofDay.map((a) => a.at)) - t0).toFixed(0) : null,
      idleMs: +idleMs.toFixed(0),
      batches: after.batches - was.batches,
      positionsDerived: after.positionsDerived - was.positions,
    };
  } finally {
    await run.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const kind of BACKENDS) {
    const runs: BenchResult[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once(kind));
    const num = (r: BenchResult, k: string) => Number(r[k]);
    out.push({
      ...runs[0],
      runs: RUNS,
      lastAnnouncedMs: median(runs.map((r) => num(r, 'lastAnnouncedMs'))),
      idleMs: median(runs.map((r) => num(r, 'idleMs'))),
      lastAnnouncedMsEach: runs.map((r) => num(r, 'lastAnnouncedMs')),
    });
  }
  return out;
}

if (require.main === module) runAsScript(run);
