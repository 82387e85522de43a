import pino from 'pino';
import { sql } from 'kysely';
import { startDerivation, type Derivation, type Deriver } from '../../../server/intelligence';
import { Jt808Gateway } from '../../../server/telematics/gateway/server';
import { ObdWriter } from '../../../server/telematics/store/obdWriter';
import { PositionWriter } from '../../../server/telematics/store/writer';
import { SimTerminal } from '../../../server/simulator/terminal';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, startTestServer, type Backend, type TestServer } from '../../helpers/testServer';
import { scriptedDay } from './days';

/** Demo terminal numbers (seeded by the demo fixtures): 8080 + 8 digits, 24 of them. */
export const demoTerminal = (n: number) => `8080${String(n).padStart(8, '0')}`;

export interface DeriveHarness {
  s: TestServer;
  port: number;
  derivation: Derivation;
  /** Stops the pipeline as a crash would leave it (marks pending, nothing derived meanwhile). */
  crashDerivation(): Promise<void>;
  /** A new pipeline on the same writers, as the next start makes it. */
  restartDerivation(): Promise<void>;
  /** Connects a demo terminal over TCP. */
  terminal(phone: string): Promise<SimTerminal>;
  /** Sends reports (as 0x0704 batches of 8; blind = type 1) and waits for their acknowledgement. */
  send(t: SimTerminal, reports: LocationInput[], how: 'single' | 'batch' | 'blind'): Promise<void>;
  /** Waits until every committed report is derived. */
  derived(): Promise<void>;
  vehicleOf(phone: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The real server on a fresh database, the JT/T 808 gateway over TCP and the derivation pipeline fed
 * by its writers; `extraDerivers` (made anew for each start) run after trips and the ledger.
 */
export async function startDeriveHarness(backend: Backend, opts: { extraDerivers?: () => Deriver[] } = {}): Promise<DeriveHarness> {
  const s = await startTestServer(backend);
  const db = s.database.db;
  const writer = new PositionWriter(db);
  const obdWriter = new ObdWriter(db);
  const derive = () =>
    startDerivation({ db, timeZone: 'Asia/Shanghai', sources: [writer, obdWriter], lingerMs: 20, extraDerivers: opts.extraDerivers?.() });
  let derivation = await derive();
  const gateway = new Jt808Gateway({ db, log: pino({ level: 'silent' }), writer, obdWriter });
  const port = await gateway.listen(0, '127.0.0.1');
  const terminals: SimTerminal[] = [];
  return {
    s,
    port,
    get derivation() {
      return derivation;
    },
    async crashDerivation() {
      await derivation.close();
    },
    async restartDerivation() {
      derivation = await derive();
    },
    async terminal(phone) {
      const t = new SimTerminal({ host: '127.0.0.1', port, phone });
      terminals.push(t);
      await t.connect();
      return t;
    },
    async send(t, reports, how) {
      if (how === 'single') for (const r of reports) t.report(r);
      else for (let i = 0; i < reports.length; i += 8) t.reportBatch(reports.slice(i, i + 8), how === 'blind');
      await t.drain();
    },
    async derived() {
      await Promise.all([writer.flush(), obdWriter.flush()]);
      await derivation.pipeline.idle();
    },
    async vehicleOf(phone) {
      const r = await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(db);
      return r.rows[0].id;
    },
    async close() {
      for (const t of terminals) t.destroy();
      await gateway.close();
      await derivation.close();
      await s.close();
    },
  };
}

/** A vehicle's derived rows (trips, stops, fuel events, ledger days) in time order, without their ids, to compare derivations. */
export async function derivedRowsOf(h: DeriveHarness, vehicleId: number) {
  const db = h.s.database.db;
  const trips = await db.selectFrom('trip').selectAll().where('vehicle_id', '=', vehicleId).orderBy('begin_time').execute();
  const stops = await db.selectFrom('trip_stop').selectAll().where('vehicle_id', '=', vehicleId).orderBy('begin_time').execute();
  const fuel = await db.selectFrom('fuel_event').selectAll().where('vehicle_id', '=', vehicleId).orderBy('time').execute();
  const ledger = await db.selectFrom('ledger_day').selectAll().where('vehicle_id', '=', vehicleId).orderBy('day').execute();
  const strip = <T extends { id?: number; vehicle_id: number }>(rows: T[]) => rows.map(({ id: _id, vehicle_id: _v, ...rest }) => rest);
  return { trips: strip(trips), stops: strip(stops), fuel: strip(fuel), ledger: ledger.map(({ vehicle_id: _v, ...rest }) => rest) };
}

/**
 * Terminal 1 (a Shanghai vehicle) sends the scripted day as one blind-area batch and it is derived;
 * with the admin's token and an outsider's (a member of the Shenzhen team, which cannot see it).
 */
export async function derivedScriptedDay(h: DeriveHarness): Promise<{ admin: string; outsider: string; vehicleId: number }> {
  const admin = await h.s.login('admin', ADMIN_PASSWORD);
  const outsider = await h.s.memberToken('HN-SZ', 'orgUser');
  const phone = demoTerminal(1);
  await h.send(await h.terminal(phone), scriptedDay(), 'batch');
  await h.derived();
  return { admin, outsider, vehicleId: await h.vehicleOf(phone) };
}
