/**
 * Issue 18, finding 1: knowing a terminal number must not make anyone that terminal. A registered
 * terminal's code is never handed out again, it only works from the hardware it was issued to,
 * a live session elsewhere is not displaced, and every refused attempt is kept and audited.
 */

import pino from 'pino';
import { Jt808Gateway } from '../../../../server/telematics/gateway/server';
import { MsgId, type DecodedMessage, type LocationInput } from '../../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, storedTimes, terminalIdOf, until, type GatewayHarness } from './harness';

const STRANGER = '127.0.0.2';
const forged: LocationInput = {
  latitude: 31.2,
  longitude: 121.4,
  speed: 199,
  direction: 0,
  status: { accOn: true, fixed: true },
  time: Date.parse('2026-11-22T03:00:00Z'),
  alarm: { active: ['sos'] },
};
const register = (terminalId: string, makerId = 'FSSIM', model = 'FS-OBD-1') =>
  ({ msgId: MsgId.Register, body: { province: 31, city: 100, makerId, model, terminalId, plateColor: 1, plate: '' } }) as const;

const result = (m: DecodedMessage | undefined): number | undefined =>
  m && m.opaque === undefined && 'result' in m.body ? (m.body.result as number) : undefined;

describe.each(BACKENDS)('terminal impersonation on %s', (backend) => {
  let h: GatewayHarness;
  let admin: string;
  beforeAll(async () => {
    h = await startGateway(backend, {
      routes: { commandTimeoutMs: 400 },
      gateway: { log: pino({ level: 'silent' }), limits: { takeoverProbeMs: 400, refusalsPerWindow: 100 } },
    });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => h.close());

  const registration = async (id: number) => (await h.s.call(admin, 'GET', `/api/vehicle/terminal/${id}/registration`)).body;
  const audits = async (target: string, action: string) =>
    h.s.database.db
      .selectFrom('audit_log')
      .select(['success', 'ip', 'detail', 'org_id'])
      .where('target', '=', target)
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  it('answers a second registration "terminal already registered" and reveals no code, whatever hardware asks', async () => {
    const phone = demoTerminal(1);
    const id = await terminalIdOf(h.s, phone);
    const real = h.terminal(phone);
    await real.connect();
    const code = real.authCode!;
    await real.end();

    for (const body of [register(phone.slice(-7)), register('STOLEN1', 'EVIL', 'X-1')]) {
      const stranger = await RawClient.open(h.port, STRANGER);
      stranger.send(phone, body);
      const [reply] = await stranger.waitFor(1);
      expect(reply).toMatchObject({ msgId: MsgId.RegisterResponse, body: { result: 3, resultName: 'terminalAlreadyRegistered' } });
      expect(reply.opaque === undefined && reply.msgId === MsgId.RegisterResponse && reply.body.authCode).toBeUndefined();
      await stranger.waitClosed();
    }
    // A forged report without the code is refused and stored nowhere.
    const forger = await RawClient.open(h.port, STRANGER);
    forger.send(phone, { msgId: MsgId.Location, body: forged });
    expect(result((await forger.waitFor(1))[0])).toBe(1);
    forger.destroy();
    expect(await storedTimes(h.s, id)).toEqual([]);

    // The real terminal keeps its code.
    const back = h.terminal(phone);
    back.authCode = code;
    await back.connect();
    await back.end();

    await h.gateway.refusals.settle();
    const view = await registration(id);
    expect(view).toMatchObject({
      registered: true,
      hardware: { makerId: 'FSSIM', model: 'FS-OBD-1', deviceId: phone.slice(-7), layout: 2013, imei: null },
    });
    expect(JSON.stringify(view)).not.toContain(code);
    expect(
      view.refusals.map((r: { message: string; reason: string; remoteAddress: string }) => [r.message, r.reason, r.remoteAddress]),
    ).toEqual([
      ['register', 'hardwareMismatch', STRANGER],
      ['register', 'alreadyRegistered', STRANGER],
    ]);
    const audited = await audits(phone, 'terminalRefused');
    expect(audited).toHaveLength(2);
    expect(audited.every((a) => a.success === false && a.ip === STRANGER && a.org_id !== null)).toBe(true);
    // The audit log page shows them to the terminal's organisation.
    const page = await h.s.call(admin, 'POST', '/api/vehicle/audit/query', {
      criteria: { action: 'terminalRefused', target: phone },
      pageIndex: 1,
      pageSize: 10,
    });
    expect(page.body.data).toHaveLength(2);
  });

  it('refuses the right code from other hardware: another IMEI, or none once one is bound (2019)', async () => {
    const phone = demoTerminal(5); // speaks 2019
    const id = await terminalIdOf(h.s, phone);
    const real = h.terminal(phone, { version: 2019 });
    await real.connect();
    await real.end();
    expect((await registration(id)).hardware).toMatchObject({ layout: 2019, imei: '860000000000000' });
    const code = real.authCode!;

    const stranger = await RawClient.open(h.port, STRANGER);
    stranger.send(phone, { msgId: MsgId.Auth, body: { code, imei: '861111111111111', softwareVersion: 'x' } }, 2019);
    stranger.send(phone, { msgId: MsgId.Auth, body: { code } }, 2013); // a downgrade: the code alone
    const replies = await stranger.waitFor(2);
    expect(replies.map(result)).toEqual([1, 1]);
    stranger.send(phone, { msgId: MsgId.Location, body: forged }, 2019);
    expect(result((await stranger.waitFor(3))[2])).toBe(1);
    stranger.destroy();
    expect(await storedTimes(h.s, id)).toEqual([]);

    await h.gateway.refusals.settle();
    expect((await registration(id)).refusals.map((r: { reason: string }) => r.reason)).toEqual(['imeiMissing', 'imeiMismatch']);
    const back = h.terminal(phone, { version: 2019 });
    back.authCode = code;
    await back.connect(); // the real hardware still gets in
    await back.end();
  });

  it('does not let a login from another address replace a live session that answers; a dead one is replaced, audited', async () => {
    const phone = demoTerminal(2);
    const id = await terminalIdOf(h.s, phone);
    const real = h.terminal(phone);
    await real.connect();

    // The stolen code from elsewhere: the live terminal answers the probe, the thief is refused.
    const thief = await RawClient.open(h.port, STRANGER);
    thief.send(phone, { msgId: MsgId.Auth, body: { code: real.authCode! } });
    expect(result((await thief.waitFor(1))[0])).toBe(1);
    await thief.waitClosed();
    expect(real.isOnline).toBe(true);
    real.report(forged);
    await real.drain();
    expect(h.gateway.stats.takeoversRefused).toBeGreaterThanOrEqual(1);

    // A session whose link died without a FIN answers nothing: the terminal, back from another
    // address, replaces it after the probe.
    real.destroy();
    const stale = await RawClient.open(h.port);
    stale.send(phone, { msgId: MsgId.Auth, body: { code: real.authCode! } });
    expect(result((await stale.waitFor(1))[0])).toBe(0);
    const moved = h.terminal(phone, { localAddress: STRANGER });
    moved.authCode = real.authCode;
    await moved.connect();
    await stale.waitClosed();
    expect(h.gateway.isOnline(id)).toBe(true);
    await moved.end();

    await h.gateway.refusals.settle();
    expect((await registration(id)).refusals.map((r: { reason: string; remoteAddress: string }) => [r.reason, r.remoteAddress])).toEqual([
      ['liveSessionElsewhere', STRANGER],
    ]);
    await until(async () => (await audits(phone, 'terminalSessionReplaced')).length === 1);
    expect((await audits(phone, 'terminalSessionReplaced'))[0]).toMatchObject({ ip: STRANGER });
  });

  it('resets a registration from the terminal row with its own code, audited: the old code stops, the next registration binds anew', async () => {
    const phone = demoTerminal(6);
    const id = await terminalIdOf(h.s, phone);
    const url = `/api/vehicle/terminal/${id}/resetRegistration`;
    const zh = await h.s.call(admin, 'PUT', url);
    expect(zh).toMatchObject({ status: 406, body: { success: false, message: '该终端未注册，无需重置' } });
    expect((await h.s.call(admin, 'PUT', url, undefined, 'en-US')).body.message).toBe(
      'The terminal is not registered; there is nothing to reset',
    );

    const real = h.terminal(phone);
    await real.connect();
    const oldCode = real.authCode!;
    let dropped = false;
    real.on('close', () => (dropped = true));

    const hdUser = await h.s.memberToken('HD', 'orgUser', ['terminal-command']);
    expect((await h.s.call(hdUser, 'PUT', url)).status).toBe(403);
    expect((await h.s.call(await h.s.memberToken('HN', 'administrator'), 'PUT', url)).status).toBe(404);
    expect((await h.s.call(null, 'PUT', url)).status).toBe(401);
    expect((await h.s.call(admin, 'PUT', '/api/vehicle/terminal/99999/resetRegistration')).status).toBe(404);

    const hdResetter = await h.s.addMember('HD', 'orgUser', ['terminal-resetRegistration']);
    const reset = await h.s.call(hdResetter.token, 'PUT', url);
    expect(reset).toMatchObject({ status: 200, body: { registered: false, hardware: null } });
    await until(() => dropped); // its live session is dropped
    const audited = await audits(phone, 'terminalResetRegistration');
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0].detail!)).toMatchObject({ hardware: { makerId: 'FSSIM', deviceId: phone.slice(-7) }, disconnected: true });

    // The old code is dead; new hardware registers and gets a new code.
    const old = await RawClient.open(h.port);
    old.send(phone, { msgId: MsgId.Auth, body: { code: oldCode } });
    expect(result((await old.waitFor(1))[0])).toBe(1);
    old.destroy();
    const replacement = await RawClient.open(h.port);
    replacement.send(phone, register('NEWUNIT', 'ACME', 'A-2'));
    const [reg] = await replacement.waitFor(1);
    expect(reg).toMatchObject({ body: { result: 0 } });
    const newCode = reg.opaque === undefined && reg.msgId === MsgId.RegisterResponse ? reg.body.authCode : undefined;
    expect(newCode).toMatch(/^[A-Z2-9]{20}$/);
    expect(newCode).not.toBe(oldCode);
    replacement.destroy();
    await h.gateway.refusals.settle();
    const view = await registration(id);
    expect(view).toMatchObject({ registered: true, hardware: { makerId: 'ACME', model: 'A-2', deviceId: 'NEWUNIT' } });
    expect(view.resetAt).not.toBeNull();
    expect(view.refusals.map((r: { reason: string }) => r.reason)).toEqual(['notRegistered']); // the old code, after the reset
  });

  it('keeps the last 20 refusals per terminal and counts a flood instead of writing each attempt', async () => {
    const phone = demoTerminal(8);
    const id = await terminalIdOf(h.s, phone);
    const attempt = async (client: RawClient) => {
      client.send(phone, { msgId: MsgId.Auth, body: { code: 'GUESSED' } });
      await client.waitFor(client.received.length + 1);
    };
    for (let i = 0; i < 8; i++) {
      const c = await RawClient.open(h.port, STRANGER);
      await attempt(c);
      for (let k = 0; k < 2; k++) await attempt(c);
      await c.waitClosed(); // three failures close the connection
    }
    await h.gateway.refusals.settle();
    const view = await registration(id);
    expect(view.refusals).toHaveLength(20);
    expect(view.refusals.every((r: { reason: string }) => r.reason === 'notRegistered')).toBe(true);

    // A gateway throttled to 2 rows a window: the flood is counted on the next row.
    const g = new Jt808Gateway({
      db: h.s.database.db,
      log: pino({ level: 'silent' }),
      limits: { refusalsPerWindow: 2, refusalWindowMs: 400, maxAuthFailures: 100 },
    });
    const port = await g.listen(0, '127.0.0.1');
    try {
      const phone2 = demoTerminal(14);
      const id2 = await terminalIdOf(h.s, phone2);
      const c = await RawClient.open(port, STRANGER);
      for (let i = 0; i < 7; i++) c.send(phone2, { msgId: MsgId.Auth, body: { code: `G${i}` } });
      await c.waitFor(7);
      await new Promise((r) => setTimeout(r, 450)); // the next window
      c.send(phone2, { msgId: MsgId.Auth, body: { code: 'LAST' } });
      await c.waitFor(8);
      c.destroy();
      await g.refusals.settle();
      const rows = (await registration(id2)).refusals as Array<{ suppressed: number }>;
      expect(rows.map((r) => r.suppressed)).toEqual([5, 0, 0]);
    } finally {
      await g.close();
    }
  });
});
