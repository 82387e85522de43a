/**
 * Remote upgrade over the real server, gateway and simulator on TCP: a package uploaded, sent in
 * packets of 1023 bytes (each acknowledged by the terminal), the terminal's 0x0108 result ending the
 * command, the result per terminal; refusals (type, size, fields, scope, permission) store nothing.
 */

import crypto from 'node:crypto';
import { MsgId } from '../../../../server/telematics/jt808/codec';
import { multipartFile } from '../../../helpers/multipart';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from '../gateway/harness';

describe.each(BACKENDS)('remote upgrade on %s', (backend) => {
  let h: GatewayHarness;
  let hd: string;
  beforeAll(async () => {
    h = await startGateway(backend, { routes: { commandTimeoutMs: 2000 } });
    hd = await h.s.memberToken('HD', 'administrator');
  });
  afterAll(() => h.close());

  const upload = async (token: string | null, query: string, name: string, data: Buffer, lang = 'zh-CN') => {
    const { payload, headers } = multipartFile(name, data, 'application/octet-stream');
    const res = await h.s.app.inject({
      method: 'POST',
      url: `/api/vehicle/upgradePackage?${query}`,
      payload,
      headers: { ...headers, 'accept-language': lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const count = async () =>
    (
      await h.s.database.db
        .selectFrom('upgrade_package')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('uploads a package, sends it in packets to two terminals and follows each one’s result', async () => {
    const firmware = crypto.randomBytes(5000); // 5 packets
    const up = await upload(hd, 'upgradeType=0&makerId=FSSIM&version=V2.0.1', 'firmware.bin', firmware);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ fileName: 'firmware.bin', upgradeType: 0, makerId: 'FSSIM', version: 'V2.0.1', size: 5000 });
    expect(up.body.sha256).toBe(crypto.createHash('sha256').update(firmware).digest('hex'));
    const listed = await h.s.call(hd, 'GET', '/api/vehicle/upgradePackage');
    expect(listed.body.map((p: { id: number }) => p.id)).toContain(up.body.id);

    const phones = [demoTerminal(9), demoTerminal(10)];
    const ids = await Promise.all(phones.map((p) => terminalIdOf(h.s, p)));
    const terminals = phones.map((p, i) => h.terminal(p, { version: i === 0 ? 2013 : 2019 }));
    await Promise.all(terminals.map((t) => t.connect()));
    for (const id of ids) {
      const r = await h.s.call(hd, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: up.body.id, waitMs: 10_000 });
      expect(r.body).toMatchObject({
        kind: 'upgrade',
        msgId: '0x8108',
        status: 'acked',
        result: 0,
        request: { packageId: up.body.id, version: 'V2.0.1' },
        response: { upgrade: { type: 0, result: 'upgraded' } },
      });
    }
    // Each terminal got the whole package.
    for (const t of terminals) expect(t.upgrades).toEqual([{ type: 0, version: 'V2.0.1', size: 5000 }]);
    const results = await h.s.call(hd, 'GET', `/api/vehicle/upgradePackage/${up.body.id}/results`);
    expect(results.body.map((r: { terminalNo: string; status: string }) => [r.terminalNo, r.status]).sort()).toEqual(
      phones.map((p) => [p, 'acked']).sort(),
    );
    // The session's serials moved past the packets: a command after the upgrade is answered as usual.
    const after = await h.s.call(hd, 'POST', `/api/vehicle/terminal/${ids[0]}/command/attributes`, { waitMs: 5000 });
    expect(after.body.status).toBe('acked');
    await Promise.all(terminals.map((t) => t.end()));
  });

  it('a terminal that reports a failed upgrade, or refuses a packet, fails the command', async () => {
    const up = await upload(hd, 'upgradeType=52&makerId=ACME&version=G1', 'gnss.img', Buffer.alloc(1500, 7));
    const phone = demoTerminal(11);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    const code = t.authCode!;
    await t.end();
    const raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code } });
    await raw.waitFor(1);
    const first = await h.s.call(hd, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: up.body.id });
    expect(first.body.status).toBe('pending');
    await raw.waitFor(3); // two packets
    const [p1, p2] = raw.received.slice(1);
    expect([p1.packet, p2.packet]).toEqual([
      { count: 2, index: 1 },
      { count: 2, index: 2 },
    ]);
    raw.send(phone, { msgId: MsgId.TerminalResponse, body: { replySerial: p1.serial, replyMsgId: MsgId.UpgradePackage, result: 0 } });
    raw.send(phone, { msgId: MsgId.UpgradeResult, body: { type: 52, result: 1 } });
    await until(async () => (await h.s.call(hd, 'GET', `/api/vehicle/terminal/${id}/command/${first.body.id}`)).body.status !== 'pending');
    expect((await h.s.call(hd, 'GET', `/api/vehicle/terminal/${id}/command/${first.body.id}`)).body).toMatchObject({
      status: 'failed',
      result: 1,
      response: { upgrade: { type: 52, result: 'failed' } },
    });

    const second = await h.s.call(hd, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: up.body.id });
    await raw.waitFor(5);
    raw.send(phone, {
      msgId: MsgId.TerminalResponse,
      body: { replySerial: raw.received[3].serial, replyMsgId: MsgId.UpgradePackage, result: 1 },
    });
    await until(async () => (await h.s.call(hd, 'GET', `/api/vehicle/terminal/${id}/command/${second.body.id}`)).body.status === 'failed');
    raw.destroy();
  });

  it('refuses a bad package or request in the caller’s language and stores nothing', async () => {
    const before = await count();
    const q = 'upgradeType=0&makerId=FSSIM&version=V1';
    expect(await upload(hd, q, 'firmware.exe', Buffer.alloc(10), 'en-US')).toMatchObject({
      status: 400,
      body: { message: 'An upgrade package is a .bin, .img, .hex, .pkg, .fw, .rom, .zip or .upg file' },
    });
    expect(await upload(hd, q, 'empty.bin', Buffer.alloc(0), 'en-US')).toMatchObject({
      status: 400,
      body: { message: 'The upgrade package is empty' },
    });
    expect((await upload(hd, q, 'big.bin', Buffer.alloc(8 * 1024 * 1024 + 1))).status).toBe(413);
    expect((await upload(hd, 'upgradeType=1&makerId=FSSIM&version=V1', 'a.bin', Buffer.alloc(10))).status).toBe(400);
    expect((await upload(hd, 'upgradeType=0&makerId=TOOLONG&version=V1', 'a.bin', Buffer.alloc(10))).status).toBe(400);
    expect((await upload(hd, 'upgradeType=0&makerId=FSSIM', 'a.bin', Buffer.alloc(10))).status).toBe(400);
    expect((await upload(null, q, 'a.bin', Buffer.alloc(10))).status).toBe(401);
    expect((await upload(await h.s.memberToken('HD', 'orgUser'), q, 'a.bin', Buffer.alloc(10))).status).toBe(403);
    expect(await count()).toBe(before);

    // Another organisation's package does not exist for the caller; nor does a terminal outside its subtree.
    const hn = await h.s.memberToken('HN', 'administrator');
    const theirs = await upload(hn, q, 'theirs.bin', Buffer.alloc(10, 1));
    expect(theirs.status).toBe(201);
    const id = await terminalIdOf(h.s, demoTerminal(12));
    const r = await h.s.call(hd, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: theirs.body.id });
    expect(r.status).toBe(400);
    expect(r.body.errors).toMatchObject([{ field: 'packageId', key: 'validation.refNotFound' }]);
    expect((await h.s.call(hd, 'GET', `/api/vehicle/upgradePackage/${theirs.body.id}/results`)).status).toBe(404);
    expect((await h.s.call(hd, 'GET', '/api/vehicle/upgradePackage')).body.map((p: { id: number }) => p.id)).not.toContain(theirs.body.id);
    expect((await h.s.call(hn, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: theirs.body.id })).status).toBe(404);
    // Offline: 406, audited as a failed attempt.
    const mine = (await h.s.call(hd, 'GET', '/api/vehicle/upgradePackage')).body[0].id as number;
    expect((await h.s.call(hd, 'POST', `/api/vehicle/terminal/${id}/command/upgrade`, { packageId: mine })).status).toBe(406);
    const audit = await h.s.database.db
      .selectFrom('audit_log')
      .select(['action', 'success'])
      .where('action', 'in', ['upgradePackageUpload', 'terminalCommand'])
      .where('target', 'in', [demoTerminal(12), `upgradePackage:${theirs.body.id}`])
      .execute();
    expect(audit.map((a) => [a.action, a.success]).sort()).toEqual([
      ['terminalCommand', false],
      ['upgradePackageUpload', true],
    ]);
  });
});
