import { sql } from 'kysely';
import { encodeFrame, MsgId, type ObdRecordInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from './harness';

const T0 = Date.parse('2026-11-20T08:00:00Z');
const position = { status: { raw: 0b11 }, latitude: 31.2304, longitude: 121.4737 };
const dtcRecord = (i: number): ObdRecordInput => ({
  time: T0 + i * 60_000,
  subtype: 0x02,
  dtcs: [
    { systemId: 1, dtc: 0x0301, status: 1, text: 'P0301' },
    { systemId: 1, dtc: 0x0420, status: 2, text: 'P0420' },
    { systemId: 7, dtc: 0x0100, status: 1, text: 'U0100' },
  ],
  position,
});
const pidRecord = (i: number): ObdRecordInput => ({
  time: T0 + i * 60_000,
  subtype: 0x01,
  pids: [
    { id: 0x0102, hex: '0001e240' }, // odometer 12345.6 km
    { id: 0x0536, hex: '0bb8' }, // 3000 rpm
    { id: 0x052d, hex: '80' }, // coolant 88 °C
  ],
  position,
});

interface RecordRow {
  device_time: Date;
  subtype: number;
  vehicle_id: number | null;
  latitude: number | null;
  readings: Record<string, unknown> | null;
  dtc_count: number;
}

describe.each(BACKENDS)('0x0900 OBD records through the gateway on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend);
  });
  afterAll(() => h.close());

  const records = async (terminalId: number) =>
    (
      await sql<RecordRow>`SELECT device_time, subtype, vehicle_id, latitude, readings, dtc_count FROM obd_record WHERE terminal_id = ${terminalId} ORDER BY device_time, subtype`.execute(
        h.s.database.db,
      )
    ).rows;
  const dtcs = async (terminalId: number) =>
    (
      await sql<{ code: string; seq: number; system_id: string; status: string; vehicle_id: number | null }>`
      SELECT code, seq, system_id::text, status::text, vehicle_id FROM obd_dtc WHERE terminal_id = ${terminalId} ORDER BY device_time, seq`.execute(
        h.s.database.db,
      )
    ).rows;

  it('stores the records and their DTCs per vehicle and device time, acknowledged after commit; a repeat adds nothing', async () => {
    const phone = demoTerminal(2);
    const id = await terminalIdOf(h.s, phone);
    const vehicle = await sql<{ id: number }>`SELECT id FROM vehicle WHERE terminal_id = ${id}`.execute(h.s.database.db);
    expect(vehicle.rows).toHaveLength(1);
    const t = h.terminal(phone);
    await t.connect();
    t.reportObd(dtcRecord(0));
    t.reportObd(pidRecord(1));
    await t.drain();
    expect(t.stats.obdAcked).toBe(2);
    const rows = await records(id);
    expect(rows.map((r) => [new Date(r.device_time).getTime(), r.subtype, r.dtc_count, r.vehicle_id])).toEqual([
      [T0, 2, 3, vehicle.rows[0].id],
      [T0 + 60_000, 1, 0, vehicle.rows[0].id],
    ]);
    expect(rows[0].latitude).toBeCloseTo(31.2304, 6);
    expect(rows[1].readings).toEqual({ odometerKm: 12345.6, rpm: 3000, coolantTempC: 88 });
    expect(await dtcs(id)).toEqual([
      { code: 'P0301', seq: 0, system_id: '1', status: '1', vehicle_id: vehicle.rows[0].id },
      { code: 'P0420', seq: 1, system_id: '1', status: '2', vehicle_id: vehicle.rows[0].id },
      { code: 'U0100', seq: 2, system_id: '7', status: '1', vehicle_id: vehicle.rows[0].id },
    ]);
    // The terminal sends a record again (its acknowledgement was lost): acknowledged, absorbed.
    const duplicatesBefore = h.gateway.obdWriter.stats.duplicates;
    t.reportObd(dtcRecord(0));
    await t.drain();
    expect(t.stats.obdAcked).toBe(3);
    expect(h.gateway.obdWriter.stats.duplicates).toBe(duplicatesBefore + 1);
    expect(await records(id)).toHaveLength(2);
    expect(await dtcs(id)).toHaveLength(3);
    await t.end();
  });

  it('acknowledges nothing before the record is committed', async () => {
    const phone = demoTerminal(4);
    const t = h.terminal(phone);
    await t.connect();
    // The store stalls: a transaction holds an exclusive lock on the table (on PGlite it also holds
    // the only connection).
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    let locked = false;
    const holder = h.s.database.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE obd_record IN EXCLUSIVE MODE`.execute(trx);
      locked = true;
      await gate;
    });
    try {
      await until(() => locked);
      t.reportObd(dtcRecord(10));
      await new Promise((r) => setTimeout(r, 300));
      expect(t.stats.obdAcked).toBe(0);
    } finally {
      release();
      await holder;
    }
    await t.drain();
    expect(t.stats.obdAcked).toBe(1);
    expect(await records(await terminalIdOf(h.s, phone))).toHaveLength(1);
    await t.end();
  });

  it('refuses malformed OBD records with a message error, keeps the connection and stores nothing', async () => {
    const phone = demoTerminal(3);
    const id = await terminalIdOf(h.s, phone);
    const sim = h.terminal(phone);
    await sim.connect(); // registers; the raw client below takes over with the code it was issued
    const raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code: sim.authCode! } });
    await raw.waitFor(1);
    // A DTC list that claims more codes than it holds; a record whose BCD time is no time.
    raw.send(phone, { msgId: MsgId.Transparent, body: { type: 0xf0, content: '261120080000000002' + '0001' + '00000001' + '0005' } });
    raw.send(phone, { msgId: MsgId.Transparent, body: { type: 0xf0, content: '99999999999900000200000000000100000000000000' } });
    // Other transparent data is acknowledged and not kept.
    raw.send(phone, { msgId: MsgId.Transparent, body: { type: 0x41, text: '$OBD-RT,13.8,800,0' } });
    // An empty body is an undecodable frame: dropped without an answer, the connection lives on.
    raw.sendBytes(encodeFrame({ msgId: MsgId.Transparent, phone, serial: 90, version: 2013 }));
    raw.send(phone, { msgId: MsgId.Heartbeat });
    const replies = await raw.waitFor(5);
    expect(
      replies
        .slice(1)
        .map((r) => (r.opaque === undefined && r.msgId === MsgId.PlatformResponse ? [r.body.replyMsgId, r.body.result] : null)),
    ).toEqual([
      [MsgId.Transparent, 2],
      [MsgId.Transparent, 2],
      [MsgId.Transparent, 0],
      [MsgId.Heartbeat, 0],
    ]);
    expect(raw.closed).toBe(false);
    expect(h.gateway.stats.badObdRecords).toBeGreaterThanOrEqual(2);
    expect(await records(id)).toEqual([]);
    raw.destroy();
    // The terminal comes back and reports a good record: stored as usual.
    await until(() => !h.gateway.isOnline(id));
    await sim.connect();
    sim.reportObd(pidRecord(5));
    await sim.drain();
    expect((await records(id)).map((r) => new Date(r.device_time).getTime())).toEqual([T0 + 5 * 60_000]);
    await sim.end();
  });
});
