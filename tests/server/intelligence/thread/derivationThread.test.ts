import { sql } from 'kysely';
import { bootstrap, type Server } from '../../../../server/bootstrap';
import type { DerivationThread } from '../../../../server/intelligence/thread/derivationThread';
import type { AlarmRaised } from '../../../../server/platform/telemetry';
import { openDatabase } from '../../../../server/platform/db/database';
import { seed } from '../../../../server/seed/seed';
import { SimTerminal } from '../../../../server/simulator/terminal';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { freePort } from '../../../helpers/serverProcess';
import { ADMIN_PASSWORD, freshPostgres } from '../../../helpers/testServer';
import { ScriptedDay } from '../alarms/scriptedDay';
import { demoTerminal, until } from '../../telematics/gateway/harness';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * The server with DERIVE_THREAD (PostgreSQL): reports through the real gateway are derived on the
 * derivation's own thread: trips, and the alarms only a pass raises, announced on the server's bus
 * and listed by the API. A thread that dies is started again and derives what came meanwhile;
 * closing keeps what was not derived marked.
 */
describe('the derivation on its own thread (PostgreSQL)', () => {
  let pg: { url: string; drop(): Promise<void> };
  let server: Server;
  let jt808Port: number;
  let token: string;
  const published: AlarmRaised[] = [];

  beforeAll(async () => {
    pg = await freshPostgres();
    jt808Port = await freePort();
    server = await bootstrap({
      database: { databaseUrl: pg.url, poolSize: 4 },
      seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
      app: { logLevel: 'silent' },
      derivation: { timeZone: 'Asia/Shanghai', thread: true, clock: false },
      telematics: { config: { jt808Port, host: '127.0.0.1', tokenTtlHours: 12 } },
    });
    server.bus.subscribe('alarm.raised', (a) => void published.push(a));
    const login = await server.app.inject({ method: 'POST', url: '/api/login', payload: { loginName: 'admin', password: ADMIN_PASSWORD } });
    token = login.json().object.token;
    const r = await server.app.inject({
      method: 'PUT',
      url: '/api/vehicle/policy',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'p-Trail', alarmType: 'Trail', threshold: null, durationMinutes: null },
    });
    if (r.statusCode !== 201) throw new Error(r.body);
  });
  afterAll(async () => {
    for (const t of terminals.values()) t.destroy();
    await server?.close();
    await pg?.drop();
  });

  const thread = () => server.derivation as DerivationThread;
  const db = () => server.database.db;
  const vehicleOf = async (phone: string) =>
    (
      await sql<{ id: number }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(
        db(),
      )
    ).rows[0].id;
  const trips = async (vehicleId: number) =>
    (
      await sql<{
        begin: number;
        end: number;
      }>`SELECT (extract(epoch FROM begin_time) * 1000)::float8 AS begin, (extract(epoch FROM end_time) * 1000)::float8 AS end FROM trip WHERE vehicle_id = ${vehicleId} ORDER BY begin_time`.execute(
        db(),
      )
    ).rows;

  // One connection per terminal (registering twice is refused), kept until the end.
  const terminals = new Map<string, SimTerminal>();
  async function send(phone: string, reports: LocationInput[]): Promise<void> {
    let t = terminals.get(phone);
    if (!t) {
      t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone });
      await t.connect();
      terminals.set(phone, t);
    }
    for (const r of reports) t.report(r);
    await t.drain(60_000);
  }

  it('derives trips and the pass-raised alarms there, announced on the server bus and listed by the API', async () => {
    expect(thread().worker).not.toBeNull();
    // Driving, parking with the ignition off, then carried away (towing, which only a pass raises).
    const day = new ScriptedDay(START, HOME).step(300, 40).step(300, 0, { acc: false }).step(120, 36, { acc: false });
    const phone = demoTerminal(3);
    const vehicleId = await vehicleOf(phone);
    await send(phone, day.reports);
    await server.derivation!.idle();
    expect((await trips(vehicleId)).length).toBeGreaterThan(0);
    await until(async () => published.some((p) => p.vehicleId === vehicleId && p.type === 'Trail'), 20_000);
    const rows = await sql<{ id: number }>`SELECT id FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Trail'`.execute(db());
    expect(rows.rows).toHaveLength(1);
    expect(published.filter((p) => p.vehicleId === vehicleId && p.type === 'Trail').map((p) => p.alarmId)).toEqual([rows.rows[0].id]);
    const listed = await server.app.inject({
      method: 'POST',
      url: '/api/vehicle/alarm/query',
      headers: { authorization: `Bearer ${token}` },
      payload: { pageIndex: 1, pageSize: 20, criteria: { vehicleId, type: 'Trail' } },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((r: { id: number }) => r.id)).toEqual([rows.rows[0].id]);
    const stats = await server.derivation!.stats();
    expect(stats.windows).toBeGreaterThan(0);
    expect(stats.batches).toBeGreaterThan(0);
    expect(stats.longestBatchMs).toBeGreaterThan(0);
    expect(stats.failures).toBe(0);
  });

  const DAY = 86_400_000;
  /** A trip out and back home, then parked long enough to end it: one trip a day. */
  const outAndBack = (start: number) =>
    new ScriptedDay(start, HOME).step(300, 40).step(300, 40, { heading: 270 }).step(900, 0, { acc: false }).reports;

  it('starts a thread that died again, which derives what was stored while it was gone', async () => {
    const phone = demoTerminal(4);
    const vehicleId = await vehicleOf(phone);
    await send(phone, outAndBack(START + DAY));
    await server.derivation!.idle();
    const first = thread().worker!;
    await first.terminate();
    // Uploaded late while no thread runs (older than what is derived, so no restart finds it by
    // itself): its marks wait in the server's thread and go to the next.
    await send(phone, outAndBack(START));
    await until(async () => thread().worker !== null && thread().worker !== first, 20_000);
    await server.derivation!.idle();
    expect((await trips(vehicleId)).map((t) => t.begin)).toEqual([START, START + DAY]);
    expect((await server.derivation!.stats()).failures).toBe(0);
  });

  it('closes leaving what it did not derive marked, and a new server derives it', async () => {
    const phone = demoTerminal(5);
    const vehicleId = await vehicleOf(phone);
    await send(phone, outAndBack(START + DAY));
    await server.derivation!.idle();
    // Uploaded late and acknowledged after the commit: its marks are on their way to the thread
    // when the server closes, before any pass.
    await send(phone, outAndBack(START));
    const closing = server.derivation!;
    await server.close();
    // Closed, it answers at once: nothing is left to wait for.
    await closing.idle();
    expect((await closing.stats()).failures).toBe(0);
    const plain = await openDatabase({ databaseUrl: pg.url, poolSize: 1 });
    try {
      const marks = await sql<{ n: number }>`SELECT count(*)::int AS n FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(plain.db);
      const derived = await sql<{ n: number }>`SELECT count(*)::int AS n FROM trip WHERE vehicle_id = ${vehicleId}`.execute(plain.db);
      // Either the pass ran before the thread stopped, or the range is still marked.
      expect(marks.rows[0].n > 0 || derived.rows[0].n === 2).toBe(true);
    } finally {
      await plain.close();
    }
    // Started again, the server derives whatever was left.
    server = await bootstrap({
      database: { databaseUrl: pg.url, poolSize: 4 },
      app: { logLevel: 'silent' },
      derivation: { timeZone: 'Asia/Shanghai', thread: true, clock: false },
    });
    await server.derivation!.idle();
    expect((await trips(vehicleId)).map((t) => t.begin)).toEqual([START, START + DAY]);
  });
});
