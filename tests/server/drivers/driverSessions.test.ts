/**
 * Driver identity through the real gateway and database, on both databases: IC card reports
 * (0x0702) sent over TCP become driver sessions; trips, the ledger split per driver and the
 * per-driver statistics carry the driver; a session spanning midnight splits both days; an unknown
 * card is listed and, once assigned, its past trips carry the driver; a remove without an insert and
 * a late upload give the same sessions as in order; a malformed report is refused with a logged
 * reason and stores nothing.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { sql } from 'kysely';
import { startDerivation, type Derivation } from '../../../server/intelligence';
import { Jt808Gateway } from '../../../server/telematics/gateway/server';
import { ObdWriter } from '../../../server/telematics/store/obdWriter';
import { PositionWriter } from '../../../server/telematics/store/writer';
import { SimTerminal } from '../../../server/simulator/terminal';
import { cardIn, cardOut } from '../../../server/simulator/cards';
import { playLegs } from '../../../server/simulator/dayScript';
import { encodeFrame, MsgId, type DriverIdentityBody, type LocationInput } from '../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { at, DAY, MIDNIGHT, scriptedDay, START } from '../intelligence/days';
import { RawClient } from '../telematics/gateway/harness';

const demoTerminal = (n: number) => `8080${String(n).padStart(8, '0')}`;
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
/** The next local day of the scripted one. */
const NEXT_DAY = '2026-11-21';
const card = (cardNo: string, name = '司机') => ({ cardNo, name });

describe.each(BACKENDS)('driver sessions from IC cards on %s', (backend) => {
  let s: TestServer;
  let derivation: Derivation;
  let gateway: Jt808Gateway;
  let port: number;
  let writer: PositionWriter;
  let obdWriter: ObdWriter;
  const logs: Array<{ msg: string; reason?: string; msgId?: number }> = [];
  const terminals: SimTerminal[] = [];
  let admin: string;
  let outsider: string;

  beforeAll(async () => {
    s = await startTestServer(backend);
    const db = s.database.db;
    writer = new PositionWriter(db);
    obdWriter = new ObdWriter(db);
    derivation = await startDerivation({ db, timeZone: 'Asia/Shanghai', sources: [writer, obdWriter], lingerMs: 20 });
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line));
        done();
      },
    });
    gateway = new Jt808Gateway({ db, log: pino({ level: 'info' }, sink), writer, obdWriter });
    port = await gateway.listen(0, '127.0.0.1');
    admin = await s.login('admin', ADMIN_PASSWORD);
    outsider = await s.memberToken('HN-SZ', 'orgUser');
  }, 240_000);
  afterAll(async () => {
    for (const t of terminals) t.destroy();
    await gateway.close();
    await derivation.close();
    await s.close();
  });

  const terminal = async (phone: string) => {
    const t = new SimTerminal({ host: '127.0.0.1', port, phone });
    terminals.push(t);
    await t.connect();
    return t;
  };
  const send = async (t: SimTerminal, reports: LocationInput[], cards: DriverIdentityBody[] = []) => {
    for (let i = 0; i < reports.length; i += 8) t.reportBatch(reports.slice(i, i + 8), true);
    for (const c of cards) t.cardEvent(c);
    await t.drain();
    await Promise.all([writer.flush(), obdWriter.flush()]);
    await derivation.pipeline.idle();
  };
  const vehicleOf = async (phone: string) =>
    (
      await sql<{ id: number }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(
        s.database.db,
      )
    ).rows[0].id;
  const driverOfVehicle = async (vehicleId: number) =>
    (
      await sql<{ id: number; name: string; cardNo: string }>`SELECT d.id, d.name, d.card_no AS "cardNo" FROM driver d
        JOIN vehicle v ON v.driver_id = d.id WHERE v.id = ${vehicleId}`.execute(s.database.db)
    ).rows[0];
  const sessionsOf = async (token: string, vehicleId: number | null, begin = MIDNIGHT - 24 * HOUR, end = MIDNIGHT + 72 * HOUR) =>
    s.call(token, 'POST', '/api/vehicle/driverSession/query', { criteria: { begin: iso(begin), end: iso(end), vehicleId } });
  const tripsOf = async (token: string, vehicleId: number) =>
    (
      await s.call(token, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}`, {
        criteria: { begin: iso(MIDNIGHT), end: iso(MIDNIGHT + 48 * HOUR) },
        order: { property: 'begin', direction: 'ASC' },
        pageIndex: 1,
        pageSize: 50,
      })
    ).body.data as Array<{
      begin: string;
      distanceKm: number;
      driver: { driverId: number | null; driverName: string | null; cardNo: string } | null;
    }>;
  const stats = async (token: string, criteria: Record<string, unknown>) =>
    s.call(token, 'POST', '/api/vehicle/driverStatistics/byDriver', { criteria: { begin: DAY, end: NEXT_DAY, ...criteria } });

  it('gives the trips inside a card session its driver, an unknown card’s trips no driver until the card is assigned, and the rest unassigned', async () => {
    const phone = demoTerminal(1);
    const vehicleId = await vehicleOf(phone);
    const driver = await driverOfVehicle(vehicleId);
    expect(driver.cardNo).toMatch(/^QC\d+$/);
    // Trips 08:00–09:03 and 10:03–10:43 inside the driver's session; 13:00 and 14:00 with a card nobody holds.
    await send(await terminal(phone), scriptedDay(), [
      cardIn(card(driver.cardNo, driver.name), at('07:50')),
      cardOut(at('10:50')),
      cardIn(card('QC777001', '王临时'), at('12:55')),
      cardOut(at('13:45')),
    ]);
    let trips = await tripsOf(admin, vehicleId);
    expect(trips.map((t) => [t.begin, t.driver])).toEqual([
      [iso(at('08:00')), { driverId: driver.id, driverName: driver.name, cardNo: driver.cardNo }],
      [iso(at('10:03')), { driverId: driver.id, driverName: driver.name, cardNo: driver.cardNo }],
      [iso(at('13:00')), { driverId: null, driverName: null, cardNo: 'QC777001' }],
      // No card in at all: unassigned, whoever the vehicle is assigned to by hand.
      [iso(at('14:00')), null],
    ]);

    // The unknown card is listed with its vehicle and when it was first and last read; an outsider sees nothing of it.
    const unknown = await s.call(admin, 'POST', '/api/vehicle/driverCard/unknown', { criteria: { vehicleId } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([
      expect.objectContaining({
        cardNo: 'QC777001',
        holderName: '王临时',
        vehicleId,
        firstSeen: iso(at('12:55')),
        lastSeen: iso(at('12:55')),
        reads: 1,
      }),
    ]);
    expect((await s.call(outsider, 'POST', '/api/vehicle/driverCard/unknown', {})).body).toEqual([]);

    // Per-driver figures: the driver's are the sum of their trips (36 + 24 km); the unknown card's and the unassigned 18 each.
    const before = await stats(admin, { vehicleId });
    expect(before.status).toBe(200);
    const rowOf = (rows: Array<{ kind: string; driverId: number | null; cardNo: string | null }>, kind: string, id?: number | null) =>
      rows.find((r) => r.kind === kind && (id === undefined || r.driverId === id));
    expect(rowOf(before.body, 'driver', driver.id)).toMatchObject({
      driverName: driver.name,
      tripCount: 2,
      mileageKm: trips[0].distanceKm + trips[1].distanceKm,
    });
    expect(rowOf(before.body, 'unknownCard')).toMatchObject({
      cardNo: 'QC777001',
      tripCount: 1,
      driverId: null,
      mileageKm: trips[2].distanceKm,
    });
    expect(rowOf(before.body, 'unassigned')).toMatchObject({ cardNo: null, tripCount: 1, driverId: null, mileageKm: trips[3].distanceKm });

    // Assigning the card to a new driver: its past sessions (and trips) are that driver's.
    const created = await s.call(admin, 'PUT', '/api/vehicle/driver', {
      name: '王五',
      mobile: '13912340001',
      orgId: await s.orgId('HD-SH'),
    });
    expect(created.status).toBeLessThan(300);
    const newDriver = created.body.id as number;
    // An outsider, even one who may edit drivers, can neither assign it nor learn that the card exists.
    expect((await s.call(outsider, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'QC777001', driverId: newDriver })).status).toBe(403);
    const outsideEditor = await s.memberToken('HN-SZ', 'orgUser', ['driver-edit']);
    expect((await s.call(outsideEditor, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'QC777001', driverId: newDriver })).status).toBe(
      404,
    );
    const assigned = await s.call(admin, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'QC777001', driverId: newDriver });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ driverId: newDriver, cardNo: 'QC777001', sessions: 1 });
    trips = await tripsOf(admin, vehicleId);
    expect(trips.slice(2).map((t) => t.driver)).toEqual([{ driverId: newDriver, driverName: '王五', cardNo: 'QC777001' }, null]);
    expect((await s.call(admin, 'POST', '/api/vehicle/driverCard/unknown', { criteria: { vehicleId } })).body).toEqual([]);
    const after = await stats(admin, { vehicleId, driverId: newDriver });
    expect(after.body).toEqual([
      expect.objectContaining({ kind: 'driver', driverId: newDriver, tripCount: 1, mileageKm: trips[2].distanceKm }),
    ]);
    // Its trips, listed per driver, add up to its figures.
    const own = await s.call(admin, 'POST', '/api/vehicle/driverStatistics/trips', {
      criteria: { begin: DAY, end: DAY, driverId: newDriver },
    });
    expect(own.body.map((t: { begin: string }) => t.begin)).toEqual([iso(at('13:00'))]);
    expect(own.body.reduce((sum: number, t: { distanceKm: number }) => sum + t.distanceKm, 0)).toBeCloseTo(after.body[0].mileageKm, 3);

    // The audit log says who assigned it.
    const audit = await s.database.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', '=', 'driverCardAssign')
      .execute();
    expect(audit).toEqual([{ action: 'driverCardAssign', target: `driver:${newDriver}` }]);

    // Assignment refusals: a card taken in the organisation, a card never read here.
    const taken = await s.call(admin, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'QC777001', driverId: driver.id }, 'en-US');
    expect([taken.status, taken.body.code, taken.body.message]).toEqual([
      406,
      'driverCard.taken',
      'Another driver of this organisation already holds this card',
    ]);
    const unseen = await s.call(admin, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'QC000404', driverId: newDriver });
    expect([unseen.status, unseen.body.code]).toEqual([404, 'driverCard.notSeen']);
    const bad = await s.call(admin, 'PUT', '/api/vehicle/driverCard/assign', { cardNo: 'no spaces', driverId: newDriver });
    expect(bad.status).toBe(400);
  });

  it('splits a session spanning midnight between both days as the ledger splits the trip', async () => {
    const phone = demoTerminal(2);
    const vehicleId = await vehicleOf(phone);
    const driver = await driverOfVehicle(vehicleId);
    // Parked until 23:00, then 2 h at 36 km/h across midnight (72 km), parked again.
    const reports = playLegs({ ...START, time: MIDNIGHT }, [
      { kind: 'park', minutes: 23 * 60 },
      { kind: 'drive', minutes: 120, kmh: 36, heading: 90 },
      { kind: 'park', minutes: 120 },
    ]);
    await send(await terminal(phone), reports, [cardIn(card(driver.cardNo), at('22:55')), cardOut(at('22:55') + 2.25 * HOUR)]);
    const ledger = await s.database.db
      .selectFrom('ledger_day')
      .select(['day', 'mileage_km', 'trip_count'])
      .where('vehicle_id', '=', vehicleId)
      .orderBy('day')
      .execute();
    const byDay = await s.call(admin, 'POST', '/api/vehicle/driverStatistics/byDay', {
      criteria: { begin: DAY, end: NEXT_DAY, vehicleId },
    });
    expect(byDay.status).toBe(200);
    const rows = byDay.body.filter((r: { kind: string }) => r.kind === 'driver');
    expect(rows.map((r: { date: string; driverId: number; tripCount: number }) => [r.date, r.driverId, r.tripCount])).toEqual([
      [DAY, driver.id, 1],
      [NEXT_DAY, driver.id, 0],
    ]);
    // The same share of the trip on each day as the vehicle's own ledger.
    const ledgerKm = new Map(ledger.map((l) => [String(l.day).slice(0, 10), Number(l.mileage_km)]));
    for (const r of rows) expect(r.mileageKm).toBeCloseTo(ledgerKm.get(r.date) ?? NaN, 2);
    expect(rows[0].mileageKm).toBeCloseTo(36, 0);
    expect(rows[1].mileageKm).toBeCloseTo(36, 0);
  });

  it('pairs the same sessions whatever order the events arrive in, and absorbs a resent one', async () => {
    const phone = demoTerminal(3);
    const vehicleId = await vehicleOf(phone);
    const t = await terminal(phone);
    const events = [
      cardIn(card('QC500001'), at('06:00')),
      // Another card inserted while the first is in: the first session ends there.
      cardIn(card('QC500002'), at('07:00')),
      cardOut(at('08:00')),
      // A remove without an insert: no session.
      cardOut(at('09:00')),
      cardIn(card('QC500001'), at('10:00')),
      // A card the reader could not read: the session before ends, none opens.
      { status: 1, time: iso(at('11:00')), readResult: 2 },
    ];
    // Late first: the remove at 08:00 and the 10:00 insert, then the rest as a blind-area upload would.
    await send(t, [], [events[2], events[4], events[3]]);
    await send(t, [], [events[1], events[5], events[0], events[0]]);
    const r = await sessionsOf(admin, vehicleId);
    expect(r.status).toBe(200);
    expect(r.body.map((x: { cardNo: string; begin: string; end: string | null }) => [x.cardNo, x.begin, x.end])).toEqual([
      ['QC500001', iso(at('06:00')), iso(at('07:00'))],
      ['QC500002', iso(at('07:00')), iso(at('08:00'))],
      ['QC500001', iso(at('10:00')), iso(at('11:00'))],
    ]);
    expect(await s.database.db.selectFrom('driver_card_event').select('id').where('vehicle_id', '=', vehicleId).execute()).toHaveLength(6);
    // A window starting inside a session still finds it open.
    const inside = await sessionsOf(admin, vehicleId, at('07:30'), at('07:45'));
    expect(inside.body.map((x: { cardNo: string; begin: string }) => [x.cardNo, x.begin])).toEqual([['QC500002', iso(at('07:00'))]]);
    // Another organisation sees none of them.
    const theirs = await sessionsOf(outsider, vehicleId);
    expect([theirs.status, theirs.body]).toEqual([200, []]);
  });

  it('refuses a malformed or meaningless card report with a logged reason, storing nothing', async () => {
    const phone = demoTerminal(4);
    const raw = await RawClient.open(port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 1, city: 1, makerId: 'VEND', model: 'ANY', terminalId: phone.slice(-7), plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode) throw new Error('not registered');
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    await raw.waitFor(2);
    // Cut before the certificate; a status that is neither in nor out; an insert with no valid time.
    raw.sendBytes(encodeFrame({ msgId: MsgId.DriverIdentity, phone, serial: 60 }, Buffer.from('0126112116000000' + '00', 'hex')));
    raw.send(phone, { msgId: MsgId.DriverIdentity, body: { status: 3, time: iso(at('08:00')) } });
    raw.send(phone, { msgId: MsgId.DriverIdentity, body: { status: 2, time: null } });
    const replies = await raw.waitFor(5);
    const results = replies
      .slice(2)
      .map((m) => (m.msgId === MsgId.PlatformResponse && m.opaque === undefined ? [m.body.replyMsgId, m.body.result] : null));
    expect(results).toEqual([
      [MsgId.DriverIdentity, 2],
      [MsgId.DriverIdentity, 2],
      [MsgId.DriverIdentity, 2],
    ]);
    const refused = logs.filter((l) => l.msg === 'jt808 driver identity refused');
    expect(refused.map((l) => l.reason)).toEqual([
      expect.stringMatching(/BAD_BODY: 0x0702: certificate needs 20 bytes/),
      'status 3 is neither 1 (inserted) nor 2 (removed)',
      'no valid time',
    ]);
    const vehicleId = await vehicleOf(phone);
    expect(await s.database.db.selectFrom('driver_card_event').select('id').where('vehicle_id', '=', vehicleId).execute()).toEqual([]);
    const terminalId = (await s.database.db.selectFrom('terminal').select('id').where('terminal_no', '=', phone).executeTakeFirstOrThrow())
      .id;
    expect(await s.database.db.selectFrom('terminal_message').select('id').where('terminal_id', '=', terminalId).execute()).toEqual([]);
    raw.destroy();
  });
});
