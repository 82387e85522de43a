import net from 'node:net';
import { sql } from 'kysely';
import { startForwarding, type ForwardingService, type LinkView } from '../../../server/forwarding';
import { Jt809Link } from '../../../server/forwarding/jt809Link';
import { MSG, type Gnss2019, type Jt809Cipher } from '../../../server/forwarding/jt809';
import { decodeLocation } from '../../../server/telematics/jt808/messages/location';
import { createBus, type ServerBus } from '../../../server/platform/bus';
import { parseTargetAllow } from '../../../server/notify/target';
import type { StoredPositions, TerminalIdentity } from '../../../server/platform/telemetry';
import { until } from '../telematics/gateway/harness';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { Superior } from './superior';

const cipher: Jt809Cipher = { m1: 30_000_000, ia1: 20_000_000, ic1: 20_000_000 };
const account = { userId: 8090, password: 'pw809', accessCode: 44030012 };
/** The superior runs on this machine: the outbound address guard refuses loopback unless allowed. */
const LOOPBACK = parseTargetAllow('127.0.0.1');

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * JT/T 809 forwarding through the real database and bus to a superior platform written in the
 * test from the standard (./superior.ts), both encrypting: the link logs in and keeps beating,
 * delivers its organisation's positions and alarms and no other's, answers on the sub link the
 * superior opens, survives the superior restarting (what was published meanwhile arrives in order),
 * and bounds its backlog.
 */
describe.each(BACKENDS)('JT/T 809 forwarding on %s', (backend) => {
  let s: TestServer;
  let bus: ServerBus;
  let superior: Superior;
  let fwd: ForwardingService;
  let downLinkPort: number;
  let hd: Array<{ id: number; licence: string; path: string; vin: string | null }>;
  let hn: { id: number; licence: string; path: string };

  const link = (): LinkView => fwd.links()[0];

  beforeAll(async () => {
    s = await startTestServer(backend);
    bus = createBus();
    superior = new Superior({ edition: 2019, ...account, cipher, key: 0x2468 });
    await superior.start();
    downLinkPort = await freePort();
    const r = await sql<{ id: number; licence: string; path: string; code: string; vin: string | null }>`
      SELECT v.id, v.licence, o.path, o.code, v.vin FROM vehicle v JOIN organisation o ON o.id = v.org_id ORDER BY v.id`.execute(
      s.database.db,
    );
    hd = r.rows.filter((v) => v.code.startsWith('HD')).slice(0, 2);
    hn = r.rows.find((v) => v.code.startsWith('HN'))!;
    await sql`
      INSERT INTO forward_link (org_id, name, protocol, host, port, edition, access_code, user_id, password, m1, ia1, ic1, encrypt_key,
                                down_link_ip, down_link_port, backlog_limit)
      VALUES (${await s.orgId('HD')}, 'province', 'jt809', '127.0.0.1', ${superior.port}, 2019, ${account.accessCode}, ${account.userId},
              ${account.password}, ${cipher.m1}, ${cipher.ia1}, ${cipher.ic1}, 1357, '127.0.0.1', ${downLinkPort}, 100)`.execute(
      s.database.db,
    );
    fwd = await startForwarding(bus, { db: s.database.db, heartbeatMs: 100, backoffMinMs: 50, backoffMaxMs: 200, allow: LOOPBACK });
  });
  afterAll(async () => {
    await fwd?.stop();
    await superior?.stop();
    await s?.close();
  });

  const identity = (v: { id: number; licence: string; path: string }): TerminalIdentity => ({
    terminalId: 9000 + v.id,
    terminalNo: `T${v.id}`,
    sim: `1440000${v.id}`,
    orgId: 1,
    orgPath: v.path,
    vehicleId: v.id,
    licence: v.licence,
    vehicleOrgPath: v.path,
  });
  const positions = (items: Array<{ v: { id: number; licence: string; path: string }; at: number; lat?: number }>): StoredPositions => ({
    inserted: items.map(({ v, at, lat }) => ({
      source: identity(v),
      record: {
        terminalId: 9000 + v.id,
        vehicleId: v.id,
        deviceTime: at,
        latitude: lat ?? 22.543096,
        longitude: 114.057865,
        altitude: 12,
        speed: 61.5,
        direction: 180,
        alarm: 0,
        status: 3,
        acc: true,
        fixed: true,
        mileageKm: 1234,
        fuelL: null,
        blind: false,
        extras: null,
        dtcs: null,
      },
    })),
  });
  const positionsOf = (licence: string): Gnss2019[] =>
    superior
      .messages('position')
      .flatMap((r) =>
        r.message.kind === 'position' && r.message.vehicle.vehicleNo === licence && r.message.gnss2019 ? [r.message.gnss2019] : [],
      );

  it('logs in with its account, encrypted, and keeps the main link beating', async () => {
    await until(() => link().state === 'up');
    expect(superior.logins).toEqual([{ ...account, downLinkIp: '127.0.0.1', downLinkPort }]);
    const login = superior.messages('loginRequest')[0];
    expect(login.header).toMatchObject({ msgId: MSG.UP_CONNECT_REQ, accessCode: account.accessCode, encrypted: true, key: 1357 });
    await until(() => superior.received.filter((r) => r.header.msgId === MSG.UP_LINKTEST_REQ).length >= 2);
    expect(link().counters.heartbeats).toBeGreaterThanOrEqual(2);
  });

  it("forwards its organisation's positions as 0x1202 and no other's", async () => {
    const at = Date.UTC(2026, 11, 7, 6, 30, 5);
    bus.publish(
      'positions.stored',
      positions([
        { v: hd[0], at },
        { v: hn, at },
        { v: hd[1], at: at + 1000 },
      ]),
    );
    await until(() => positionsOf(hd[1].licence).length === 1);
    expect(positionsOf(hn.licence)).toEqual([]);
    const [g] = positionsOf(hd[0].licence);
    const fix = decodeLocation(g.gnssData, 0, g.gnssData.length, 480);
    expect(fix).toMatchObject({ latitude: 22.543096, longitude: 114.057865, altitude: 12, speed: 61.5, direction: 180, timestamp: at });
    expect(link().counters.sent.position).toBe(2);
  });

  it('forwards a raised alarm as 0x1402', async () => {
    const begin = new Date(Date.UTC(2026, 11, 7, 6, 31, 0));
    const r = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, value)
      VALUES (${hd[0].id}, 'OverSpeed', 'terminal', 'high', '', ${begin}, NULL, ${begin}, 95) RETURNING id`.execute(s.database.db);
    bus.publish('alarm.raised', {
      alarmId: r.rows[0].id,
      vehicleId: hd[0].id,
      orgPath: hd[0].path,
      type: 'OverSpeed',
      at: begin.getTime(),
    });
    await until(() => superior.messages('warnInfo').length === 1);
    const m = superior.messages('warnInfo')[0].message;
    expect(m.kind === 'warnInfo' && m.warn).toMatchObject({
      warnType: 0x0001,
      warnTime: begin.getTime() / 1000,
      vehicleNo: hd[0].licence,
      sourcePlatformId: String(account.accessCode),
    });
  });

  it('accepts the sub link with the verify code only, beats on it and answers a static information request', async () => {
    await superior.openSubLink(0x1111);
    await until(() => superior.subReceived.length === 1);
    expect(superior.subReceived[0].message).toEqual({ kind: 'code', msgId: MSG.DOWN_CONNECT_RSP, code: 1 });
    superior.subReceived.length = 0;
    await superior.openSubLink();
    await until(() => superior.subReceived.length === 1);
    expect(superior.subReceived[0].message).toEqual({ kind: 'code', msgId: MSG.DOWN_CONNECT_RSP, code: 0 });
    await until(() => link().subLink === 'up');
    superior.subHeartbeat();
    await until(() => superior.subReceived.some((x) => x.header.msgId === MSG.DOWN_LINKTEST_RSP));
    const colourOf = (licence: string) =>
      superior
        .messages('position')
        .flatMap((r) =>
          r.message.kind === 'position' && r.message.vehicle.vehicleNo === licence ? [r.message.vehicle.vehicleColor] : [],
        )[0];
    superior.askCarInfo({ vehicleNo: hd[0].licence, vehicleColor: colourOf(hd[0].licence) });
    await until(() => superior.messages('carInfo').length === 1);
    const m = superior.messages('carInfo')[0].message;
    expect(m.kind === 'carInfo' && Object.fromEntries(m.info)).toMatchObject({
      OWERS_NAME: expect.any(String),
      ...(hd[0].vin ? { VIN: hd[0].vin } : {}),
    });
    // A vehicle outside the link's organisation is not described; one inside, asked after it, is.
    superior.askCarInfo({ vehicleNo: hn.licence, vehicleColor: 1 });
    superior.askCarInfo({ vehicleNo: hn.licence, vehicleColor: 2 });
    superior.askCarInfo({ vehicleNo: hd[1].licence, vehicleColor: colourOf(hd[1].licence) });
    await until(() => superior.messages('carInfo').length === 2);
    expect(superior.messages('carInfo').map((r) => r.message.kind === 'carInfo' && r.message.vehicle.vehicleNo)).toEqual([
      hd[0].licence,
      hd[1].licence,
    ]);
  });

  it('reconnects when the superior restarts and delivers what was published meanwhile, in order', async () => {
    await superior.stop();
    await until(() => link().state !== 'up');
    const at = Date.UTC(2026, 11, 7, 7, 0, 0);
    bus.publish('positions.stored', positions([1, 2, 3].map((i) => ({ v: hd[1], at: at + i * 1000, lat: 22 + i / 10 }))));
    await until(() => link().backlog === 3);
    const before = superior.received.length;
    superior = new Superior({ edition: 2019, ...account, cipher, key: 0x2468, port: superior.port });
    await superior.start();
    // A sent batch leaves the stored backlog once written, just after the superior can have read it.
    await until(() => link().state === 'up' && positionsOf(hd[1].licence).length === 3 && link().backlog === 0, 10_000);
    expect(before).toBeGreaterThan(0);
    expect(superior.logins).toHaveLength(1);
    expect(positionsOf(hd[1].licence).map((g) => decodeLocation(g.gnssData, 0, g.gnssData.length, 480).latitude)).toEqual([
      22.1, 22.2, 22.3,
    ]);
    expect(link()).toMatchObject({ backlog: 0, counters: { dropped: 0 } });
    expect(link().counters.connects).toBeGreaterThanOrEqual(2);
  });
});

describe('a JT/T 809 link alone', () => {
  it('keeps the newest messages within its backlog, counting the dropped, and sends them once up', async () => {
    const port = await freePort();
    const l = new Jt809Link({
      host: '127.0.0.1',
      port,
      edition: 2011,
      ...account,
      downLinkIp: '',
      downLinkPort: 0,
      backlogLimit: 2,
      backoffMinMs: 20,
      backoffMaxMs: 50,
    });
    await l.start();
    for (const n of [1, 2, 3, 4, 5]) l.send(0x1300, Buffer.from([n]), 'static');
    expect(l.snapshot()).toMatchObject({ backlog: 2, counters: { dropped: 3 } });
    const superior = new Superior({ edition: 2011, ...account, port });
    await superior.start();
    try {
      await until(() => superior.received.filter((r) => r.header.msgId === 0x1300).length === 2);
      expect(
        superior.received.filter((r) => r.header.msgId === 0x1300).map((r) => r.message.kind === 'other' && r.message.body[0]),
      ).toEqual([4, 5]);
      expect(l.snapshot()).toMatchObject({ state: 'up', backlog: 0, counters: { sent: { static: 2 }, dropped: 3 } });
    } finally {
      await l.stop();
      await superior.stop();
    }
  });

  it('counts a refused login and tries again', async () => {
    const superior = new Superior({ edition: 2019, ...account });
    await superior.start();
    const l = new Jt809Link({
      host: '127.0.0.1',
      port: superior.port,
      edition: 2019,
      ...account,
      password: 'wrong',
      downLinkIp: '',
      downLinkPort: 0,
      backoffMinMs: 20,
      backoffMaxMs: 50,
    });
    try {
      await l.start();
      await until(() => l.counters.loginFailures >= 2);
      expect(l.snapshot()).toMatchObject({ counters: { lastLoginResult: 4 }, lastError: 'login refused: result 4' });
      expect(l.state).not.toBe('up');
    } finally {
      await l.stop();
      await superior.stop();
    }
  });
});
