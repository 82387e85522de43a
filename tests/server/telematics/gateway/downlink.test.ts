import { MsgId, type DecodedMessage } from '../../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { openSocket } from '../../../helpers/wsClient';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from './harness';

const here = {
  latitude: 30.2741,
  longitude: 120.1551,
  speed: 12.5,
  status: { accOn: true, fixed: true },
  time: Date.parse('2026-11-21T01:02:03Z'),
};

describe.each(BACKENDS)('downlink commands and live push on %s', (backend) => {
  let h: GatewayHarness;
  let admin: string;
  beforeAll(async () => {
    h = await startGateway(backend, { routes: { commandTimeoutMs: 400 } });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => h.close());
  const url = (id: number, rest: string) => `/api/vehicle/terminal/${id}/command${rest}`;
  /** The code a registered terminal authenticates with (registered by the simulator, then gone). */
  const authCodeOf = async (phone: string) => {
    const t = h.terminal(phone);
    await t.connect();
    const code = t.authCode!;
    await t.end();
    return code;
  };
  /** A terminal signed in over a raw connection that answers nothing unless the test does. */
  const silentSession = async (phone: string, code: string) => {
    const raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code } });
    await raw.waitFor(1);
    return raw;
  };

  it('refuses a command to an offline terminal with 406 in the caller’s language, and records nothing', async () => {
    const id = await terminalIdOf(h.s, demoTerminal(13));
    const zh = await h.s.call(admin, 'POST', url(id, '/location'), {});
    expect(zh).toMatchObject({ status: 406, body: { success: false, message: '终端不在线，无法下发指令' } });
    const en = await h.s.call(admin, 'POST', url(id, '/text'), { text: 'hi' }, 'en-US');
    expect(en.body.message).toBe('The terminal is offline; the command cannot be sent');
    expect((await h.s.call(admin, 'GET', url(id, ''))).body).toEqual([]);
  });

  it('sends each command to an online terminal and shows the terminal’s answer', async () => {
    const phone = demoTerminal(12);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone, { currentLocation: () => here });
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();

    const loc = await h.s.call(admin, 'POST', url(id, '/location'), { waitMs: 5000 });
    expect(loc.status).toBe(200);
    expect(loc.body).toMatchObject({
      terminalId: id,
      kind: 'location',
      msgId: '0x8201',
      status: 'acked',
      response: { location: { latitude: 30.2741, longitude: 120.1551, speed: 12.5 } },
    });

    const params = await h.s.call(admin, 'POST', url(id, '/params'), {
      params: [
        { id: 0x29, type: 'u32', value: 30 },
        { id: 0x10, type: 'string', value: 'cmnet' },
      ],
      waitMs: 5000,
    });
    expect(params.body).toMatchObject({ kind: 'params', msgId: '0x8103', status: 'acked', result: 0 });
    const text = await h.s.call(admin, 'POST', url(id, '/text'), { text: '请返回车队', tts: true, waitMs: 5000 });
    expect(text.body).toMatchObject({ kind: 'text', msgId: '0x8300', status: 'acked', request: { text: '请返回车队', tts: true } });
    const control = await h.s.call(admin, 'POST', url(id, '/control'), { command: 'engineStop', waitMs: 5000 });
    expect(control.body).toMatchObject({ kind: 'control', msgId: '0x8105', status: 'acked' });

    expect(received.map((m) => m.msgId)).toEqual([MsgId.LocationQuery, MsgId.SetParams, MsgId.Text, MsgId.TerminalControl]);
    const [, p, x, c] = received;
    expect(p.opaque === undefined && p.msgId === MsgId.SetParams && p.body.params).toEqual([
      { id: 0x29, type: 'u32', value: 30 },
      { id: 0x10, type: 'string', value: 'cmnet' },
    ]);
    expect(x.opaque === undefined && x.msgId === MsgId.Text && [x.body.text, x.body.flags.tts, x.body.flags.display]).toEqual([
      '请返回车队',
      true,
      true,
    ]);
    expect(c.opaque === undefined && c.msgId === MsgId.TerminalControl && c.body.command).toBe(0xf0);

    const list = await h.s.call(admin, 'GET', url(id, ''));
    expect(list.body.map((r: { kind: string }) => r.kind)).toEqual(['control', 'text', 'params', 'location']);
    const one = await h.s.call(admin, 'GET', url(id, `/${loc.body.id}`));
    expect(one.body).toEqual(loc.body);
    // The answer to the location query is a position like any other.
    const stored = await h.s.database.db.selectFrom('position').select('device_time').where('terminal_id', '=', id).execute();
    expect(stored.map((r) => new Date(r.device_time).getTime())).toEqual([here.time]);
    await t.end();
  });

  it('marks a command failed when the terminal says so, and timed out when it never answers', async () => {
    const phone = demoTerminal(14);
    const id = await terminalIdOf(h.s, phone);
    const raw = await silentSession(phone, await authCodeOf(phone));
    const silent = await h.s.call(admin, 'POST', url(id, '/text'), { text: 'anyone?' });
    expect(silent.body.status).toBe('pending');
    await until(async () => (await h.s.call(admin, 'GET', url(id, `/${silent.body.id}`))).body.status === 'timeout');

    const sent = h.s.call(admin, 'POST', url(id, '/control'), { command: 0x64, params: 'a;b', waitMs: 5000 });
    await raw.waitFor(3);
    const cmd = raw.received[2];
    expect(cmd).toMatchObject({ msgId: MsgId.TerminalControl, body: { command: 0x64, params: 'a;b' } });
    raw.send(phone, { msgId: MsgId.TerminalResponse, body: { replySerial: cmd.serial, replyMsgId: MsgId.TerminalControl, result: 3 } });
    expect((await sent).body).toMatchObject({ status: 'failed', result: 3, response: { replyMsgId: MsgId.TerminalControl, result: 3 } });
    raw.destroy();
  });

  it('reads the parameters back (0x8104, or 0x8106 for chosen ids) and keeps the answer as the command’s response', async () => {
    const phone = demoTerminal(15);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    await h.s.call(admin, 'POST', url(id, '/params'), {
      params: [
        { id: 1, type: 'u32', value: 30 },
        { id: 0x83, type: 'string', value: '浙A12345' },
      ],
      waitMs: 5000,
    });

    const all = await h.s.call(admin, 'POST', url(id, '/readParams'), { waitMs: 5000 });
    expect(all.body).toMatchObject({ kind: 'readParams', msgId: '0x8104', status: 'acked', request: {} });
    const params = all.body.response.params as Array<{ id: number; type: string; value: unknown }>;
    expect(params).toContainEqual({ id: 1, type: 'u32', value: 30 });
    expect(params).toContainEqual({ id: 0x83, type: 'string', value: '浙A12345' });
    expect(params).toContainEqual({ id: 0x55, type: 'u32', value: 120 }); // never set: the factory value

    // Chosen ids, in the order asked; an id the terminal does not have is simply not answered.
    const some = await h.s.call(admin, 'POST', url(id, '/readParams'), { ids: [0x55, 1, 0xdead], waitMs: 5000 });
    expect(some.body).toMatchObject({ msgId: '0x8106', status: 'acked', request: { ids: [0x55, 1, 0xdead] } });
    expect(some.body.response).toEqual({
      params: [
        { id: 0x55, type: 'u32', value: 120 },
        { id: 1, type: 'u32', value: 30 },
      ],
    });
    expect((await h.s.call(admin, 'GET', url(id, `/${some.body.id}`))).body).toEqual(some.body);
    const asked = received.filter((m) => m.msgId === MsgId.QueryParams);
    expect(asked.map((m) => m.opaque === undefined && m.msgId === MsgId.QueryParams && m.body.ids)).toEqual([[0x55, 1, 0xdead]]);
    await t.end();
  });

  it('fails a pending command at once when its terminal’s session closes before answering', async () => {
    const phone = demoTerminal(16);
    const id = await terminalIdOf(h.s, phone);
    const raw = await silentSession(phone, await authCodeOf(phone));
    const silent = await h.s.call(admin, 'POST', url(id, '/readParams'), {});
    expect(silent.body.status).toBe('pending');
    raw.destroy();
    await until(async () => (await h.s.call(admin, 'GET', url(id, `/${silent.body.id}`))).body.status !== 'pending');
    // Failed, for the closed session, not timed out.
    expect((await h.s.call(admin, 'GET', url(id, `/${silent.body.id}`))).body).toMatchObject({
      status: 'failed',
      response: { reason: 'sessionClosed' },
    });
  });

  it('fails a pending command at once when a new login replaces the session it went out on', async () => {
    const phone = demoTerminal(17);
    const id = await terminalIdOf(h.s, phone);
    const code = await authCodeOf(phone);
    const first = await silentSession(phone, code);
    const pending = await h.s.call(admin, 'POST', url(id, '/location'), {});
    expect(pending.body.status).toBe('pending');
    // The terminal reconnects from the same address before answering: its old serial is lost.
    const second = await silentSession(phone, code);
    await first.waitClosed();
    await until(async () => (await h.s.call(admin, 'GET', url(id, `/${pending.body.id}`))).body.status !== 'pending');
    expect((await h.s.call(admin, 'GET', url(id, `/${pending.body.id}`))).body).toMatchObject({
      status: 'failed',
      response: { reason: 'sessionClosed' },
    });
    // A command through the new session is answered as usual.
    const next = h.s.call(admin, 'POST', url(id, '/location'), { waitMs: 5000 });
    await second.waitFor(2);
    const q = second.received[1];
    second.send(phone, { msgId: MsgId.LocationQueryResponse, body: { replySerial: q.serial, location: here } });
    expect((await next).body).toMatchObject({ status: 'acked' });
    second.destroy();
  });

  it.each([
    ['/params', { params: [{ id: 1, type: 'u8', value: 256 }] }, 'params.0.value'],
    ['/params', { params: [{ id: 1, type: 'bytes', value: 'xyz' }] }, 'params.0.value'],
    ['/params', { params: [] }, 'params'],
    ['/text', { text: '' }, 'text'],
    ['/text', { text: 'x'.repeat(401) }, 'text'],
    ['/control', { command: 256 }, 'command'],
    ['/location', { waitMs: 60_000 }, 'waitMs'],
    ['/location', { bogus: 1 }, 'bogus'],
    ['/readParams', { ids: [] }, 'ids'],
    ['/readParams', { ids: [1, 1] }, 'ids'],
    ['/readParams', { ids: [4294967296] }, 'ids.0'],
    ['/readParams', { ids: ['1'] }, 'ids.0'],
  ])('answers a bad %s body with 400 naming the field (%#)', async (path, body, field) => {
    const id = await terminalIdOf(h.s, demoTerminal(12));
    const r = await h.s.call(admin, 'POST', url(id, path), body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('hides terminals outside the caller’s subtree, and needs the terminal-command code', async () => {
    const id = await terminalIdOf(h.s, demoTerminal(12)); // a Hangzhou (HD) terminal
    const hnAdmin = await h.s.memberToken('HN', 'administrator');
    expect((await h.s.call(hnAdmin, 'POST', url(id, '/location'), {})).status).toBe(404);
    expect((await h.s.call(hnAdmin, 'GET', url(id, ''))).status).toBe(404);
    const hdUser = await h.s.memberToken('HD', 'orgUser');
    expect((await h.s.call(hdUser, 'POST', url(id, '/location'), {})).status).toBe(403);
    expect((await h.s.call(hdUser, 'GET', url(id, ''))).status).toBe(200);
    expect((await h.s.call(null, 'GET', url(id, ''))).status).toBe(401);
    expect((await h.s.call(admin, 'POST', url(99999, '/location'), {})).status).toBe(404);
    expect((await h.s.call(admin, 'POST', '/api/vehicle/terminal/abc/command/location', {})).status).toBe(400);
    expect((await h.s.call(admin, 'POST', url(id, '/reboot'), {})).status).toBe(404);
  });

  it('streams positions and alarms over WebSocket, each caller seeing only its subtree', async () => {
    const ws = h.httpUrl!.replace('http', 'ws') + '/api/vehicle/live';
    const shToken = await h.s.memberToken('HD-SH', 'orgUser');
    const hnToken = await h.s.memberToken('HN', 'orgUser');
    const sh = await openSocket(`${ws}?token=${encodeURIComponent(shToken)}`);
    const hn = await openSocket(ws, ['fleetstar', hnToken]);
    expect(hn.protocol).toBe('fleetstar'); // the token is never echoed back
    const root = await openSocket(`${ws}?token=${admin}`);
    await expect(openSocket(ws)).rejects.toThrow('HTTP 401');
    await expect(openSocket(`${ws}?token=not-a-token`)).rejects.toThrow('HTTP 401');
    await expect(openSocket(ws, ['fleetstar', shToken + 'x'])).rejects.toThrow('HTTP 401');

    const shanghai = h.terminal(demoTerminal(3)); // HD-SH
    const shenzhen = h.terminal(demoTerminal(18)); // HN-SZ
    await Promise.all([shanghai.connect(), shenzhen.connect()]);
    const time = Date.parse('2026-11-21T03:00:00Z');
    shanghai.report({ ...here, time, alarm: { active: ['overspeed'] } });
    shenzhen.report({ ...here, time: time + 1000 });
    const positions = (ms: typeof sh.messages) =>
      ms.filter((m) => m.type === 'positions').flatMap((m) => m.items as Array<{ licence: string; terminalId: number }>);
    await root.until((ms) => positions(ms).length === 2);
    await sh.until((ms) => ms.some((m) => m.type === 'alarms'));
    await hn.until((ms) => positions(ms).length === 1);
    const shId = await terminalIdOf(h.s, demoTerminal(3));
    const szId = await terminalIdOf(h.s, demoTerminal(18));
    expect(positions(sh.messages).map((p) => p.terminalId)).toEqual([shId]);
    expect(positions(sh.messages)[0].licence).toMatch(/^沪A/);
    expect(sh.messages.find((m) => m.type === 'alarms')).toMatchObject({ items: [{ terminalId: shId, alarms: ['overspeed'] }] });
    expect(positions(hn.messages).map((p) => p.terminalId)).toEqual([szId]);
    expect(hn.messages.some((m) => m.type === 'alarms')).toBe(false);

    // Narrowing to one vehicle: the HN client asks for a vehicle it has no data for.
    hn.send({ vehicleIds: [-1] });
    await new Promise((r) => setTimeout(r, 100));
    shenzhen.report({ ...here, time: time + 2000 });
    await root.until((ms) => positions(ms).length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(positions(hn.messages)).toHaveLength(1);
    for (const s of [sh, hn, root]) s.close();
    await until(() => h.hub!.stats.subscribers === 0);
    await Promise.all([shanghai.end(), shenzhen.end()]);
  });
});
