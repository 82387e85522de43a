/**
 * Two gateway processes' worth of parts (each its own gateway, position writer and NATS
 * connection) on one PostgreSQL and one nats-server of the test's own: a terminal connected to
 * either one is pushed live to members of both, a command sent from either reaches it, its position
 * is in the API's next monitor/query, and the bus loses nothing across a nats-server restart.
 */
import crypto from 'node:crypto';
import pino from 'pino';
import { createNatsBus, type NatsBus } from '../../../../server/platform/natsBus';
import type { ServerTopics } from '../../../../server/platform/bus';
import { fromWire, NatsDownlink, serveDownlink, toWire } from '../../../../server/telematics/cluster/downlink';
import { CommandService } from '../../../../server/telematics/commands/service';
import { upgradeBytes } from '../../../../server/telematics/commands/upgradeBytes';
import { Jt808Gateway } from '../../../../server/telematics/gateway/server';
import { MsgId } from '../../../../server/telematics/jt808/codec';
import { LiveHub } from '../../../../server/telematics/live/hub';
import { PositionWriter } from '../../../../server/telematics/store/writer';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { startNatsServer, type NatsServer } from '../../../helpers/natsServer';
import { startTestServer, type TestServer } from '../../../helpers/testServer';
import { demoTerminal, RawClient, terminalIdOf, until } from '../gateway/harness';

interface Member {
  gateway: Jt808Gateway;
  port: number;
  bus: NatsBus<ServerTopics>;
  pushed: string[];
  commands: CommandService;
  downlink: NatsDownlink;
  close(): Promise<void>;
}

describe('gateway processes sharing work over NATS JetStream', () => {
  let s: TestServer;
  let nats: NatsServer;
  const members: Member[] = [];
  const terminals: SimTerminal[] = [];

  async function member(first: boolean): Promise<Member> {
    const db = s.database.db;
    const bus = await createNatsBus<ServerTopics>({ url: nats.url });
    const writer = new PositionWriter(db, { copyPool: s.database.pool });
    writer.on('stored', (batch) => bus.publish('positions.stored', batch));
    const gateway = new Jt808Gateway({ db, writer, log: pino({ level: 'silent' }), resetLinkState: first });
    const port = await gateway.listen(0, '127.0.0.1');
    const stopServing = serveDownlink(bus.connection, gateway, upgradeBytes(db));
    const hub = new LiveHub();
    const pushed: string[] = [];
    hub.add({ orgPath: '/', backlog: () => 0, send: (json) => pushed.push(json) });
    const unsubscribe = bus.subscribe('positions.stored', hub.publish);
    const downlink = new NatsDownlink(bus.connection);
    const commands = new CommandService(db, downlink, 5000);
    return {
      gateway,
      port,
      bus,
      pushed,
      commands,
      downlink,
      async close() {
        commands.close();
        downlink.close();
        unsubscribe();
        stopServing();
        await gateway.close();
        await bus.close();
      },
    };
  }

  beforeAll(async () => {
    nats = await startNatsServer();
    s = await startTestServer('postgres');
    members.push(await member(true), await member(false));
  });
  afterAll(async () => {
    for (const t of terminals) t.destroy();
    for (const m of members) await m.close();
    await s?.close();
    await nats?.stop();
  });

  const connect = async (phone: string, on: Member) => {
    const t = new SimTerminal({ host: '127.0.0.1', port: on.port, phone, keepAcked: true });
    terminals.push(t);
    await t.connect();
    return t;
  };
  const T0 = Date.parse('2026-11-22T08:00:00Z');
  const report = (i: number) => ({
    latitude: 31.2,
    longitude: 121.4 + i * 1e-4,
    speed: 20,
    direction: 0,
    status: { accOn: true, fixed: true },
    time: T0 + i * 1000,
  });
  const pushedTo = (m: Member, terminalId: number) => m.pushed.filter((j) => j.includes(`"terminalId":${terminalId}`)).length;

  it.each([0, 1])('pushes a position live to members of both processes when the terminal is on process %i', async (k) => {
    const phone = demoTerminal(7 + k);
    const t = await connect(phone, members[k]);
    const terminalId = await terminalIdOf(s, phone);
    t.report(report(k));
    await t.drain();
    await until(() => members.every((m) => pushedTo(m, terminalId) > 0), 10_000);
    await t.end();
  });

  it.each([0, 1])(
    'lists a position stored by the gateway of process %i in the next monitor/query and vehicleCount, without the bus',
    async (k) => {
      const admin = await s.login('admin', 'Admin2026x');
      const ask = async () =>
        (await s.call(admin, 'POST', '/api/vehicle/monitor/query', { criteria: { online: true }, format: 'items' })).body.data as Array<{
          vehicleId: number;
          longitude: number;
        }>;
      const online = (await s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {})).body.online as number;
      const phone = demoTerminal(14 + k);
      const t = await connect(phone, members[k]);
      const terminalId = await terminalIdOf(s, phone);
      const vehicleId = (
        await s.database.db.selectFrom('vehicle').select('id').where('terminal_id', '=', terminalId).executeTakeFirstOrThrow()
      ).id;
      t.report(report(40 + k));
      await t.drain();
      expect((await ask()).find((v) => v.vehicleId === vehicleId)?.longitude).toBeCloseTo(121.4 + (40 + k) * 1e-4, 6);
      expect((await s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {})).body.online).toBe(online + 1);
      await t.end();
    },
  );

  it.each([
    [0, 1],
    [1, 0],
  ])('sends a command from process %i to a terminal on process %i and records its answer', async (from, on) => {
    const phone = demoTerminal(9 + from);
    const t = await connect(phone, members[on]);
    const terminalId = await terminalIdOf(s, phone);
    await until(() => members[from].downlink.isOnline(terminalId), 5000);
    const cmd = await members[from].commands.send(terminalId, 'location', { msgId: MsgId.LocationQuery }, {}, null, 5000);
    expect(cmd).toMatchObject({ status: 'acked' });
    await t.end();
    await until(async () => !(await members[from].downlink.isOnline(terminalId)), 5000);
    expect(await members[from].commands.send(terminalId, 'location', { msgId: MsgId.LocationQuery }, {}, null)).toBeNull();
  });

  it('sends an upgrade package beyond one NATS message from one process to a terminal on the other, whole', async () => {
    const phone = demoTerminal(11);
    const t = await connect(phone, members[1]);
    const terminalId = await terminalIdOf(s, phone);
    await until(() => members[0].downlink.isOnline(terminalId), 5000);
    const data = crypto.randomBytes(1_500_000); // beyond NATS's 1 MB messages: it goes by its SHA-256
    const sha256 = crypto.createHash('sha256').update(data).digest('hex');
    const db = s.database.db;
    const org = await db.selectFrom('organisation').select('id').orderBy('id').executeTakeFirstOrThrow();
    await db
      .insertInto('upgrade_package')
      .values({
        org_id: org.id,
        file_name: 'fw.bin',
        upgrade_type: 0,
        maker_id: 'FSSIM',
        version: 'V3',
        size: data.length,
        sha256,
        content: data,
      })
      .execute();
    const got: Buffer[] = [];
    t.on('command', (m: { msgId: number; body: { data?: Buffer } }) => {
      if (m.msgId === MsgId.UpgradePackage && m.body.data) got.push(m.body.data);
    });
    const message = { msgId: MsgId.UpgradePackage, body: { type: 0, makerId: 'FSSIM', version: 'V3', data } } as const;
    const cmd = await members[0].commands.send(terminalId, 'upgrade', message, { version: 'V3' }, null, 60_000, 60_000);
    expect(cmd).toMatchObject({ status: 'acked', result: 0 });
    expect(got).toHaveLength(1);
    expect(got[0].equals(data)).toBe(true);
    // Small bytes go inline, whole, and bytes stored nowhere are not sent.
    expect(await fromWire(toWire({ a: [Buffer.from('808')] }), async () => null)).toEqual({ a: [Buffer.from('808')] });
    await db.deleteFrom('upgrade_package').where('sha256', '=', sha256).execute();
    expect(await members[0].commands.send(terminalId, 'upgrade', message, { version: 'V3' }, null)).toMatchObject({ status: 'failed' });
    await t.end();
  });

  it('moves a live session to its new binding at once when the vehicle is unbound through another process (issue 39, finding 4)', async () => {
    // The API process reaches the holder over NATS, as startTelematics installs it with NATS_URL.
    s.app.terminalSessions.install((ids) => members[0].downlink.rebind(ids));
    const phone = demoTerminal(17);
    const t = await connect(phone, members[1]);
    const terminalId = await terminalIdOf(s, phone);
    const vehicleId = (
      await s.database.db.selectFrom('vehicle').select('id').where('terminal_id', '=', terminalId).executeTakeFirstOrThrow()
    ).id;
    const admin = await s.login('admin', 'Admin2026x');
    const storedFor = async (i: number) =>
      (
        await s.database.db
          .selectFrom('position')
          .select('vehicle_id')
          .where('terminal_id', '=', terminalId)
          .where('device_time', '=', new Date(T0 + i * 1000))
          .executeTakeFirstOrThrow()
      ).vehicle_id;
    t.report(report(60));
    await t.drain();
    expect(await storedFor(60)).toBe(vehicleId);
    expect((await s.call(admin, 'PUT', `/api/vehicle/vehicle/unbind/${vehicleId}`)).status).toBe(200);
    t.report(report(61));
    await t.drain();
    expect(await storedFor(61)).toBeNull();
    expect(t.isOnline).toBe(true); // the same connection
    await t.end();
  });

  it('fails a command sent from one process at once when the terminal’s session on the other closes unanswered', async () => {
    const phone = demoTerminal(13);
    const t = await connect(phone, members[1]);
    const code = t.authCode!;
    await t.end();
    const terminalId = await terminalIdOf(s, phone);
    const raw = await RawClient.open(members[1].port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code } });
    await raw.waitFor(1);
    await until(() => members[0].downlink.isOnline(terminalId), 5000);
    const started = Date.now();
    const cmd = await members[0].commands.send(terminalId, 'readParams', { msgId: MsgId.QueryAllParams }, {}, null);
    expect(cmd).toMatchObject({ status: 'pending' });
    await raw.waitFor(2); // the query reached the terminal, which never answers
    raw.destroy();
    await until(async () => (await members[0].commands.get(terminalId, cmd!.id))?.status !== 'pending', 5000);
    expect(await members[0].commands.get(terminalId, cmd!.id)).toMatchObject({ status: 'failed', response: { reason: 'sessionClosed' } });
    expect(Date.now() - started).toBeLessThan(5000); // well before the command's timeout
  });

  it('loses nothing on the bus when nats-server is killed and restarted: shared consumers catch up', async () => {
    const got: number[] = [];
    const stop = members[1].bus.subscribeShared!('positions.stored', 'catchup', (b) => {
      for (const x of b.inserted) got.push(x.record.deviceTime);
    });
    const phone = demoTerminal(12);
    const t = await connect(phone, members[0]);
    for (let i = 0; i < 20; i++) t.report(report(100 + i));
    await t.drain();
    await until(() => got.length === 20, 10_000);
    await nats.restart(true);
    // Stored while nats-server is coming back: published once it is up, consumed after.
    for (let i = 20; i < 40; i++) t.report(report(100 + i));
    await t.drain(30_000);
    await until(() => new Set(got).size === 40, 30_000);
    stop();
    await t.end();
  });

  it('gives each message of a shared subscription to one member of the group across processes', async () => {
    const got: Array<[number, number]> = [];
    const stops = members.map((m, k) =>
      m.bus.subscribeShared!('alarm.raised', 'once', (a) => {
        got.push([k, a.alarmId]);
      }),
    );
    await new Promise((r) => setTimeout(r, 300)); // both consumers bound
    for (let id = 1; id <= 30; id++)
      members[id % 2].bus.publish('alarm.raised', { alarmId: id, vehicleId: 1, orgPath: '/1/', type: 'Overspeed', at: T0 });
    await until(() => got.length >= 30, 10_000);
    await new Promise((r) => setTimeout(r, 300)); // nothing delivered twice meanwhile
    expect(got.map(([, id]) => id).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    for (const stop of stops) stop();
  });
});
