import { sql } from 'kysely';
import pino from 'pino';
import { Jt808Gateway } from '../../../../server/telematics/gateway/server';
import { PositionWriter } from '../../../../server/telematics/store/writer';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { MsgId, type LocationInput } from '../../../../server/telematics/jt808/codec';
import { RefusedError } from '../../../../server/simulator/terminal';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, storedTimes, terminalIdOf, until, type GatewayHarness } from './harness';

const T0 = Date.parse('2026-11-20T08:00:00Z');
const at = (i: number, extra: Partial<LocationInput> = {}): LocationInput => ({
  latitude: 31.23 + i * 1e-4,
  longitude: 121.47 + i * 1e-4,
  speed: 40 + (i % 20),
  direction: 90,
  status: { accOn: true, fixed: true },
  time: T0 + i * 10_000,
  extras: { mileageKm: 1000 + i / 10, fuelL: 200 - i / 100 },
  ...extra,
});

describe.each(BACKENDS)('JT/T 808 gateway on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend);
  });
  afterAll(() => h.close());

  it('stores every acknowledged position of terminals that register, authenticate and report', async () => {
    const phones = [1, 2, 3, 5].map(demoTerminal); // terminal 5 speaks 2019
    const terminals = phones.map((p, k) => h.terminal(p, { version: k === 3 ? 2019 : 2013 }));
    await Promise.all(terminals.map((t) => t.connect()));
    // Out of order on purpose: device time, not arrival, orders the track.
    const order = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
    for (const i of order) for (const t of terminals) t.report(at(i));
    await Promise.all(terminals.map((t) => t.drain()));
    for (const [k, t] of terminals.entries()) {
      expect(t.stats.acked).toBe(40);
      const id = await terminalIdOf(h.s, phones[k]);
      expect(await storedTimes(h.s, id)).toEqual([...t.ackedTimes].sort((a, b) => a - b));
    }
    const id1 = await terminalIdOf(h.s, phones[0]);
    const state = await sql<{ device_time: Date; mileage_km: number; acc: boolean; licence: string }>`
      SELECT s.device_time, s.mileage_km, s.acc, v.licence FROM vehicle_state s JOIN vehicle v ON v.id = s.vehicle_id WHERE v.terminal_id = ${id1}`.execute(
      h.s.database.db,
    );
    expect(state.rows).toHaveLength(1);
    expect(new Date(state.rows[0].device_time).getTime()).toBe(T0 + 39 * 10_000);
    expect(state.rows[0].mileage_km).toBeCloseTo(1003.9);
    const link = await h.s.database.db.selectFrom('terminal_link').selectAll().where('terminal_id', '=', id1).executeTakeFirstOrThrow();
    expect(link.online).toBe(true);
    expect(link.auth_code).toMatch(/^[A-Z2-9]{20}$/);
    await terminals[0].logout();
    await until(
      async () =>
        !(await h.s.database.db.selectFrom('terminal_link').select('online').where('terminal_id', '=', id1).executeTakeFirstOrThrow())
          .online,
    );
    expect(h.gateway.isOnline(id1)).toBe(false);
    for (const t of terminals.slice(1)) await t.end();
  });

  it('refuses a terminal that is not in the terminal table, and one not in use', async () => {
    await expect(h.terminal('999999999999').connect()).rejects.toThrow(RefusedError);
    const raw = await RawClient.open(h.port);
    raw.send('999999999999', {
      msgId: MsgId.Register,
      body: { province: 1, city: 1, makerId: 'X', model: 'Y', terminalId: 'Z', plateColor: 1, plate: '' },
    });
    const [reply] = await raw.waitFor(1);
    expect(reply).toMatchObject({ msgId: MsgId.RegisterResponse, body: { result: 4, resultName: 'terminalNotFound' } });
    await raw.waitClosed();

    await sql`UPDATE terminal SET in_use = false WHERE terminal_no = ${demoTerminal(20)}`.execute(h.s.database.db);
    await expect(h.terminal(demoTerminal(20)).connect()).rejects.toThrow(RefusedError);
    // An auth code guessed without registering is refused too.
    const raw2 = await RawClient.open(h.port);
    raw2.send(demoTerminal(21), { msgId: MsgId.Auth, body: { code: 'GUESS' } });
    expect((await raw2.waitFor(1))[0]).toMatchObject({ msgId: MsgId.PlatformResponse, body: { replyMsgId: MsgId.Auth, result: 1 } });
    raw2.destroy();
  });

  it('refuses everything but register and authenticate before authentication, and stores nothing', async () => {
    const phone = demoTerminal(6);
    const id = await terminalIdOf(h.s, phone);
    const raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Location, body: at(1) });
    raw.send(phone, { msgId: MsgId.Heartbeat });
    raw.send(phone, { msgId: MsgId.BatchLocation, body: { type: 1, items: [at(2)] } });
    const replies = await raw.waitFor(3);
    expect(
      replies.map((r) => (r.msgId === MsgId.PlatformResponse && r.opaque === undefined ? [r.body.replyMsgId, r.body.result] : null)),
    ).toEqual([
      [MsgId.Location, 1],
      [MsgId.Heartbeat, 1],
      [MsgId.BatchLocation, 1],
    ]);
    // A wrong auth code three times closes the connection.
    for (let i = 0; i < 3; i++) raw.send(phone, { msgId: MsgId.Auth, body: { code: `WRONG${i}` } });
    await raw.waitClosed();
    expect(raw.received.slice(3).map((r) => r.opaque === undefined && r.msgId === MsgId.PlatformResponse && r.body.result)).toEqual([
      1, 1, 1,
    ]);
    expect(await storedTimes(h.s, id)).toEqual([]);
  });

  it('does not let an authenticated connection report for another terminal', async () => {
    const t = h.terminal(demoTerminal(7));
    await t.connect();
    const raw = await RawClient.open(h.port);
    // Authenticate the raw client as terminal 7 with the code the simulator was issued.
    raw.send(demoTerminal(7), { msgId: MsgId.Auth, body: { code: t.authCode! } });
    await raw.waitFor(1);
    raw.send(demoTerminal(8), { msgId: MsgId.Location, body: at(1) });
    const replies = await raw.waitFor(2);
    expect(replies[1]).toMatchObject({ body: { replyMsgId: MsgId.Location, result: 1 } });
    expect(await storedTimes(h.s, await terminalIdOf(h.s, demoTerminal(8)))).toEqual([]);
    raw.destroy();
  });

  it('keeps one live session per terminal: a new login replaces the old one', async () => {
    const phone = demoTerminal(9);
    const first = h.terminal(phone);
    await first.connect();
    let firstClosed = false;
    first.on('close', () => (firstClosed = true));
    const second = h.terminal(phone);
    second.authCode = first.authCode; // the same device, reconnecting
    await second.connect();
    await until(() => firstClosed);
    const id = await terminalIdOf(h.s, phone);
    expect(h.gateway.isOnline(id)).toBe(true);
    second.report(at(100));
    await second.drain();
    expect(await storedTimes(h.s, id)).toEqual([T0 + 100 * 10_000]);
    // The replaced session's close must not mark the terminal offline.
    await new Promise((r) => setTimeout(r, 100));
    expect(
      (await h.s.database.db.selectFrom('terminal_link').select('online').where('terminal_id', '=', id).executeTakeFirstOrThrow()).online,
    ).toBe(true);
    await second.end();
  });

  it('absorbs duplicates from retries and stores blind-area batches by device time', async () => {
    const phone = demoTerminal(10);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    t.report(at(50));
    t.report(at(50)); // the same report again, as after a lost acknowledgement
    t.report(at(60));
    await t.drain();
    expect(t.stats.acked).toBe(3);
    // After an outage: the buffered reports come as one blind-area batch, older than the latest.
    t.reportBatch([at(51), at(52), at(53), at(50)], true);
    await t.drain();
    expect(await storedTimes(h.s, id)).toEqual([50, 51, 52, 53, 60].map((i) => T0 + i * 10_000));
    const blind = await h.s.database.db
      .selectFrom('position')
      .select(['device_time', 'blind'])
      .where('terminal_id', '=', id)
      .where('blind', '=', true)
      .execute();
    expect(blind).toHaveLength(3); // the repeated 50 was already there, not a blind-area row
    const state = await sql<{ device_time: Date }>`SELECT device_time FROM vehicle_state WHERE terminal_id = ${id}`.execute(
      h.s.database.db,
    );
    expect(new Date(state.rows[0].device_time).getTime()).toBe(T0 + 60 * 10_000); // not moved back
    await t.end();
  });

  it('answers a bad checksum with a message error, drops garbage and oversized frames, and keeps serving', async () => {
    const t = h.terminal(demoTerminal(11));
    await t.connect();
    const raw = await RawClient.open(h.port);
    raw.send(demoTerminal(11), { msgId: MsgId.Auth, body: { code: t.authCode! } });
    await raw.waitFor(1);
    // A heartbeat with its checksum flipped.
    raw.sendBytes(Buffer.from('7e000200000808000000110005' + '00' + '7e', 'hex'));
    const [, bad] = await raw.waitFor(2);
    expect(bad).toMatchObject({ msgId: MsgId.PlatformResponse, body: { replyMsgId: MsgId.Heartbeat, replySerial: 5, result: 2 } });
    raw.sendBytes(Buffer.from('hello, not a frame\x7e\x01\x02\x7e', 'latin1'));
    raw.sendBytes(Buffer.concat([Buffer.from([0x7e]), Buffer.alloc(10_000, 0x31), Buffer.from([0x7e])]));
    raw.send(demoTerminal(11), { msgId: MsgId.Heartbeat });
    const replies = await raw.waitFor(3);
    expect(replies[2]).toMatchObject({ body: { replyMsgId: MsgId.Heartbeat, result: 0 } });
    expect(h.gateway.stats.droppedFrames).toBeGreaterThanOrEqual(2);
    raw.destroy();
  });

  it('pauses reading while the store is behind, then catches up without losing a report', async () => {
    // A second gateway whose writer saturates after 40 queued positions.
    const writer = new PositionWriter(h.s.database.db, { batchSize: 20, highWater: 40, lowWater: 10 });
    const g = new Jt808Gateway({ db: h.s.database.db, log: pino({ level: 'silent' }), writer });
    const port = await g.listen(0, '127.0.0.1');
    let saturated = 0;
    let paused = 0;
    writer.on('saturated', () => saturated++);
    const onPause = g.onPause.bind(g);
    g.onPause = (session, p) => {
      if (p) paused++;
      onPause(session, p);
    };
    const phone = demoTerminal(15);
    const t = new SimTerminal({ host: '127.0.0.1', port, phone, keepAcked: true });
    // The store stalls: a transaction holds an exclusive lock on the position table (on PGlite it
    // also holds the only connection).
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    let locked = false;
    let holder: Promise<void> = Promise.resolve();
    try {
      await t.connect();
      holder = h.s.database.db.transaction().execute(async (trx) => {
        await sql`LOCK TABLE position IN EXCLUSIVE MODE`.execute(trx);
        locked = true;
        await gate;
      });
      await until(() => locked);
      for (let i = 0; i < 600; i++) t.report(at(1000 + i));
      await until(() => saturated > 0 && paused > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(t.stats.acked).toBe(0); // nothing is acknowledged before it is committed
      release();
      await holder;
      await t.drain(30_000);
      expect(t.stats.acked).toBe(600);
      const stored = await storedTimes(h.s, await terminalIdOf(h.s, phone));
      expect(stored).toEqual([...t.ackedTimes].sort((a, b) => a - b));
    } finally {
      release();
      t.destroy();
      await g.close();
    }
  });

  it('drops a connection that never authenticates, and one that only sends garbage', async () => {
    // A second gateway on the same database, with tight limits.
    const g = new Jt808Gateway({ db: h.s.database.db, log: pino({ level: 'silent' }), limits: { authTimeoutMs: 200, maxBadFrames: 4 } });
    const port = await g.listen(0, '127.0.0.1');
    try {
      const idle = await RawClient.open(port);
      await idle.waitClosed(3000);
      const noisy = await RawClient.open(port);
      for (let i = 0; i < 6; i++) noisy.sendBytes(Buffer.from('7e0002000008080000001100050f7e', 'hex')); // bad checksums
      await noisy.waitClosed(3000);
    } finally {
      await g.close();
    }
  });
});
