/**
 * Arrival order never matters: one scripted week of two vehicles (drives, idling, speeding, a
 * collision bit, a refuel, a siphoned tank) is sent through the real gateway in random orders and
 * batchings (live reports one by one, 0x0704 batches, blind-area uploads, chunks sent twice, passes
 * settling in between or not, the derivation stopped and started again in the middle), and every
 * run must leave exactly the trips, stops, fuel events, ledger days, replay levels, alarms,
 * behaviour and health days of the reference run, with no alarm announced twice and every one
 * announced once (and flagged so in the table).
 * In `npm test`: 25 orders per backend from a fixed seed (the same orders every run);
 * `npm run test:arrival` draws 50 new orders per backend (ARRIVAL_RUNS; ARRIVAL_SEED and
 * ARRIVAL_PATH replay one a failure printed, though the passes' timing may differ; ARRIVAL_BACKEND
 * runs one backend).
 */

import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { startDerivation, type Derivation } from '../../../server/intelligence';
import { createAlarmEngine } from '../../../server/intelligence/alarms/engine';
import { engineDerivers } from '../../../server/intelligence/engine';
import type { RaisedAlarm } from '../../../server/intelligence/alarms/store';
import type { DB } from '../../../server/platform/db/tables';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal, startGateway, until, type GatewayHarness } from '../telematics/gateway/harness';
import { ScriptedDay } from './alarms/scriptedDay';

const RUNS = Number(process.env.ARRIVAL_RUNS ?? 25);
/** The orders' seed: given, drawn anew (ARRIVAL_SEED=random), or the suite's fixed one. */
const SEED = process.env.ARRIVAL_SEED === 'random' ? undefined : process.env.ARRIVAL_SEED ? Number(process.env.ARRIVAL_SEED) : 20261202;
/** With the seed, the one order a failure printed (its `path`), to replay it alone. */
const PATH = process.env.ARRIVAL_PATH;
const WEEK = Date.parse('2026-11-16T00:00:00Z'); // a Monday, 08:00 in Shanghai
const HOME = { latitude: 31.2, longitude: 121.4 };
const DAY_MS = 86_400_000;
const CRASH_BIT = 29;

/** One vehicle's week: each day a morning drive (speeding on some days), idling, parking, an evening drive back. */
function week(seed: number): LocationInput[] {
  const out: LocationInput[] = [];
  let fuel = 60;
  for (let d = 0; d < 7; d++) {
    const day = new ScriptedDay(WEEK + d * DAY_MS, HOME);
    day.step(40 * 60, 0, { acc: false, every: 600, fuelL: fuel });
    day.step(3 * 60, 0, { acc: true, every: 30 });
    day.step(15 * 60, (d + seed) % 3 === 0 ? 110 : 60, { every: 60, heading: 90 });
    if (d === 3 && seed === 1) day.step(60, 40, { every: 20, alarmBits: [CRASH_BIT] });
    day.step(12 * 60, 30, { every: 60, heading: 0 });
    fuel -= 4;
    day.step(4 * 60, 0, { acc: true, every: 30, fuelL: fuel });
    if (d === 2) {
      // Refuelled while parked.
      day.step(20 * 60, 0, { acc: false, every: 120 });
      fuel = 70;
      day.step(20 * 60, 0, { acc: false, every: 120, fuelL: fuel });
    }
    if (d === 5 && seed === 0) {
      // Siphoned while parked: 30 L gone in steps.
      for (const left of [fuel - 10, fuel - 20, fuel - 30]) day.step(20 * 60, 0, { acc: false, every: 300, fuelL: left });
      fuel -= 30;
    }
    day.step(6 * 60 * 60, 0, { acc: false, every: 1800, fuelL: fuel });
    day.step(3 * 60, 0, { acc: true, every: 30 });
    day.step(27 * 60, 60, { every: 60, heading: 270 });
    day.step(60, 0, { acc: false, every: 60 });
    out.push(...day.reports);
  }
  return out;
}

type Mode = 'live' | 'batch' | 'blind';
interface Chunk {
  vehicle: number;
  reports: LocationInput[];
  mode: Mode;
  twice: boolean;
  settle: boolean;
}

const TABLES: readonly string[] = ['trip', 'trip_stop', 'fuel_event', 'ledger_day', 'track_minute', 'alarm', 'behaviour_day', 'health_day'];
/** Written by the database or the pass's clock, not by the rules. */
const UNSTABLE = new Set(['id', 'created_at', 'updated_at', 'derived_at', 'handled_at', 'superseded_by']);

async function derivedRows(db: Kysely<DB>, vehicleIds: number[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = (
      await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE vehicle_id = ANY(${vehicleIds}::int[])`.execute(db)
    ).rows;
    out[table] = rows
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r)
              .filter(([k]) => !UNSTABLE.has(k))
              .sort(([a], [b]) => a.localeCompare(b)),
          ),
        ),
      )
      .sort();
  }
  return out;
}

describe.each(BACKENDS.filter((b) => !process.env.ARRIVAL_BACKEND || b === process.env.ARRIVAL_BACKEND))(
  'a scripted week in any order of arrival, on %s',
  (backend) => {
    let g: GatewayHarness;
    let derivation: Derivation;
    const raised: RaisedAlarm[] = [];
    const phones = [demoTerminal(2), demoTerminal(3)];
    const weeks = [week(0), week(1)];
    let vehicleIds: number[] = [];
    let terminals: Array<ReturnType<GatewayHarness['terminal']>> = [];
    let db: Kysely<DB>;
    const engine = () => createAlarmEngine({ db, onRaised: (a) => raised.push(...a) });
    let alarms: ReturnType<typeof engine>;
    const startPipeline = async () => {
      derivation = await startDerivation({
        db,
        timeZone: 'Asia/Shanghai',
        sources: [g.gateway.writer, g.gateway.obdWriter],
        lingerMs: 20,
        oneConnection: backend === 'pglite',
        derivers: engineDerivers({ alarms: { onRaised: alarms.announce } }),
      });
    };
    const settled = async () => {
      await g.gateway.writer.flush();
      await derivation.pipeline.idle();
      await until(async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM derive_mark`.execute(db)).rows[0].n === 0, 60_000);
    };

    beforeAll(async () => {
      g = await startGateway(backend);
      db = g.s.database.db;
      alarms = engine();
      vehicleIds = await Promise.all(
        phones.map(async (phone) => {
          const r = await sql<{
            id: number;
          }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(db);
          return r.rows[0].id;
        }),
      );
      const admin = await g.s.login('admin', 'Admin2026x');
      for (const body of [
        { name: 'w-OverSpeed', alarmType: 'OverSpeed', threshold: 100, durationMinutes: null, params: { durationSeconds: 60 } },
        { name: 'w-Idle', alarmType: 'Idle', threshold: null, durationMinutes: 2 },
        { name: 'w-FireOn', alarmType: 'FireOn', threshold: null, durationMinutes: null },
        { name: 'w-FuelDrain', alarmType: 'FuelDrain', threshold: null, durationMinutes: null },
      ]) {
        const r = await g.s.call(admin, 'PUT', '/api/vehicle/policy', body);
        if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      }
      // Registered once: each run sends through the same sessions.
      terminals = phones.map((phone) => g.terminal(phone));
      await Promise.all(terminals.map((t) => t.connect()));
      await startPipeline();
    }, 600_000);
    afterAll(async () => {
      await derivation.close();
      await alarms.stop();
      await g.close();
    });

    /** Everything the vehicles had, as though they had never reported. */
    async function forget(): Promise<void> {
      await settled();
      for (const table of [
        ...TABLES,
        'position',
        'obd_record',
        'vehicle_state',
        'derive_mark',
        'derive_state',
        'track_minute_cover',
      ] as const)
        await sql`DELETE FROM ${sql.table(table)} WHERE vehicle_id = ANY(${vehicleIds}::int[])`.execute(db);
      raised.length = 0;
    }

    async function deliver(chunks: readonly Chunk[], restartAfter: number | null): Promise<void> {
      for (const [i, c] of chunks.entries()) {
        const t = terminals[c.vehicle];
        for (let n = 0; n < (c.twice ? 2 : 1); n++) {
          if (c.mode === 'live') for (const r of c.reports) t.report(r);
          else for (let k = 0; k < c.reports.length; k += 20) t.reportBatch(c.reports.slice(k, k + 20), c.mode === 'blind');
          await t.drain(60_000);
        }
        if (c.settle) await settled();
        if (restartAfter === i) {
          await g.gateway.writer.flush();
          await derivation.close();
          await startPipeline();
        }
      }
      await settled();
    }

    /**
     * No alarm announced twice, and every alarm stored now announced. An alarm later data showed to be
     * part of another (two merged) may have been announced before it went: what live data showed.
     */
    async function announcedOnce(): Promise<void> {
      const stored = (
        await sql<{
          id: number;
          announced: boolean;
        }>`SELECT id, announced FROM alarm WHERE vehicle_id = ANY(${vehicleIds}::int[]) AND state = 'current' ORDER BY id`.execute(db)
      ).rows;
      const ids = raised.map((a) => a.id);
      expect(ids.length).toBe(new Set(ids).size);
      // The table says so too: none is left for a later pass to announce.
      expect(stored.filter((r) => !r.announced)).toEqual([]);
      expect(stored.map((r) => r.id).filter((id) => !ids.includes(id))).toEqual([]);
    }

    it('derives the same week, and announces each alarm once, however the reports arrive', async () => {
      // The reference: every report in order, each vehicle's week in one batch, one pass.
      await forget();
      await deliver(
        weeks.map((reports, vehicle) => ({ vehicle, reports, mode: 'batch', twice: false, settle: false })),
        null,
      );
      const reference = await derivedRows(db, vehicleIds);
      // A week that shows what it must: trips every day, a refuel and a drain, several alarm types.
      expect(reference.trip.length).toBeGreaterThanOrEqual(28);
      expect(reference.fuel_event.join()).toContain('"kind":"refuel"');
      expect(reference.fuel_event.join()).toContain('"kind":"drain"');
      for (const type of ['OverSpeed', 'Idle', 'FireOn', 'Crash', 'FuelDrain'])
        expect(reference.alarm.join()).toContain(`"type":"${type}"`);
      await announcedOnce();

      const plan = fc.record({
        cuts: fc.array(fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 2 }),
        modes: fc.array(fc.record({ mode: fc.constantFrom<Mode>('live', 'batch', 'blind'), twice: fc.boolean(), settle: fc.boolean() }), {
          minLength: 30,
          maxLength: 30,
        }),
        order: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        restart: fc.option(fc.nat({ max: 29 }), { nil: null }),
      });
      await fc.assert(
        fc.asyncProperty(plan, async ({ cuts, modes, order, restart }) => {
          // Each vehicle's week cut into chunks of the sizes drawn (the last chunk takes the rest).
          const chunks: LocationInput[][][] = weeks.map((reports, vehicle) => {
            const parts: LocationInput[][] = [];
            let at = 0;
            for (const size of cuts[vehicle]) {
              if (at >= reports.length) break;
              parts.push(reports.slice(at, at + size));
              at += size;
            }
            if (at < reports.length) parts.push(reports.slice(at));
            return parts;
          });
          // Shuffled (late uploads, the vehicles interleaved), each chunk with its way of arriving.
          const shuffled: Chunk[] = chunks
            .flatMap((parts, vehicle) => parts.map((reports) => ({ vehicle, reports })))
            .map((c, i) => ({ chunk: { ...c, ...modes[i % modes.length] }, key: order[i % order.length] * 64 + i }))
            .sort((x, y) => x.key - y.key)
            .map((x) => x.chunk);
          await forget();
          await deliver(shuffled, restart);
          expect(await derivedRows(db, vehicleIds)).toEqual(reference);
          await announcedOnce();
        }),
        { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }), ...(PATH ? { path: PATH } : {}) },
      );
    }, 3_600_000);
  },
);
