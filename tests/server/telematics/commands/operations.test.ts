/**
 * Operations from the console through the command service, over the real server, gateway and
 * simulator on TCP: terminal attributes, temporary tracking, door control and the platform's fences
 * sent as terminal-side areas, each followed to the terminal's answer, audited, scoped to the
 * caller's organisations and refused with a localised reason when it cannot be sent.
 */

import { sql } from 'kysely';
import { MsgId, type DecodedMessage, type KnownMessage } from '../../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from '../gateway/harness';

const here = {
  latitude: 30.2741,
  longitude: 120.1551,
  speed: 0,
  status: { accOn: false, fixed: true },
  time: Date.parse('2026-11-21T01:02:03Z'),
};

/** The last command of an id the terminal received. */
function lastOf<I extends number>(received: DecodedMessage[], msgId: I): Extract<KnownMessage, { msgId: I }> {
  const m = [...received].reverse().find((x) => x.opaque === undefined && x.msgId === msgId);
  if (!m) throw new Error(`no 0x${msgId.toString(16)} received`);
  return m as Extract<KnownMessage, { msgId: I }>;
}

describe.each(BACKENDS)('terminal operations on %s', (backend) => {
  let h: GatewayHarness;
  let admin: string;
  let hd: string;
  beforeAll(async () => {
    h = await startGateway(backend, { routes: { commandTimeoutMs: 2000 } });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    hd = await h.s.memberToken('HD', 'administrator');
  });
  afterAll(() => h.close());
  const url = (id: number, kind: string) => `/api/vehicle/terminal/${id}/command/${kind}`;
  const fence = async (body: Record<string, unknown>, token = hd) => {
    const r = await h.s.call(token, 'PUT', '/api/vehicle/fence', body);
    expect(r.status).toBe(201);
    return r.body.id as number;
  };

  it('queries the terminal’s attributes and keeps its answer as the command’s response', async () => {
    const phone = demoTerminal(9);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    const r = await h.s.call(admin, 'POST', url(id, 'attributes'), { waitMs: 5000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'attributes',
      msgId: '0x8107',
      status: 'acked',
      response: {
        attributes: { makerId: 'FSSIM', model: 'FS-OBD-1', terminalId: phone.slice(-7), firmwareVersion: 'sim-1.0', gnss: 3, comms: 0x21 },
      },
    });
    // The answer is kept like every decoded message too.
    const kept = await h.s.database.db.selectFrom('terminal_message').select('msg_id').where('terminal_id', '=', id).execute();
    expect(kept.map((k) => k.msg_id)).toContain(MsgId.AttributesResponse);
    await t.end();
  });

  it('completes the oldest pending attributes query with an answer that names no serial, and times out one never answered', async () => {
    const phone = demoTerminal(14);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    const code = t.authCode!;
    await t.end();
    const raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code } });
    await raw.waitFor(1);
    const first = await h.s.call(admin, 'POST', url(id, 'attributes'), {});
    const second = await h.s.call(admin, 'POST', url(id, 'attributes'), {});
    expect([first.body.status, second.body.status]).toEqual(['pending', 'pending']);
    await raw.waitFor(3);
    const attributes = {
      terminalType: 1,
      makerId: 'ACME1',
      model: 'M-7',
      terminalId: 'T000007',
      iccid: '89860000000000000007',
      hardwareVersion: 'H2',
      firmwareVersion: 'F3',
      gnss: 2,
      comms: 1,
    };
    raw.send(phone, { msgId: MsgId.AttributesResponse, body: attributes });
    await until(async () => (await h.s.call(admin, 'GET', url(id, String(first.body.id)))).body.status === 'acked');
    expect((await h.s.call(admin, 'GET', url(id, String(first.body.id)))).body.response).toEqual({ attributes });
    await until(async () => (await h.s.call(admin, 'GET', url(id, String(second.body.id)))).body.status === 'timeout');
    raw.destroy();
  });

  it('starts and stops a temporary tracking', async () => {
    const phone = demoTerminal(11);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    const start = await h.s.call(admin, 'POST', url(id, 'tracking'), { interval: 5, duration: 600, waitMs: 5000 });
    expect(start.body).toMatchObject({
      kind: 'tracking',
      msgId: '0x8202',
      status: 'acked',
      result: 0,
      request: { interval: 5, duration: 600 },
    });
    expect(lastOf(received, MsgId.TemporaryTracking).body).toEqual({ interval: 5, validity: 600 });
    expect(t.tracking?.interval).toBe(5);
    expect(t.tracking!.until).toBeGreaterThan(Date.now() + 590_000);
    const stop = await h.s.call(admin, 'POST', url(id, 'tracking'), { interval: 0, duration: 0, waitMs: 5000 });
    expect(stop.body.status).toBe('acked');
    expect(t.tracking).toBeNull();
    await t.end();
  });

  it.each([2013, 2019] as const)('locks and unlocks the doors of a %s terminal; its 0x0500 answer is stored and read', async (version) => {
    const phone = demoTerminal(version === 2013 ? 12 : 5);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone, { version, currentLocation: () => here });
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    const lock = await h.s.call(admin, 'POST', url(id, 'vehicleControl'), { doors: 'lock', waitMs: 5000 });
    expect(lock.body).toMatchObject({
      kind: 'vehicleControl',
      msgId: '0x8500',
      status: 'acked',
      response: { doorsLocked: true, location: { latitude: 30.2741, longitude: 120.1551 } },
    });
    const sent = lastOf(received, MsgId.VehicleControl).body;
    expect(version === 2013 ? sent : sent.items).toEqual(version === 2013 ? { flag: 1 } : [{ type: 1, value: 0 }]);
    expect(t.doorsLocked).toBe(true);
    const unlock = await h.s.call(admin, 'POST', url(id, 'vehicleControl'), { doors: 'unlock', waitMs: 5000 });
    expect(unlock.body).toMatchObject({ status: 'acked', response: { doorsLocked: false } });
    expect(t.doorsLocked).toBe(false);
    // The answer's position is a position like any other.
    await until(async () => {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM position WHERE terminal_id = ${id}`.execute(h.s.database.db);
      return r.rows[0].n === 1;
    });
    await t.end();
  });

  it('sends the platform’s circle, rectangle, polygon and route fences as terminal areas, and deletes them', async () => {
    const phone = demoTerminal(10);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone, { version: 2019 });
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    const circle = await fence({
      name: '仓库',
      fenceType: 'circle',
      geometry: { center: [121.6, 31.2], radius: 500 },
      alarmOnExit: false,
      speedLimit: 40,
    });
    const rect = await fence({
      name: '园区',
      fenceType: 'rectangle',
      geometry: {
        points: [
          [121.5, 31.1],
          [121.7, 31.1],
          [121.7, 31.3],
          [121.5, 31.3],
        ],
      },
    });
    const poly = await fence({
      name: '港区',
      fenceType: 'polygon',
      geometry: {
        points: [
          [121.5, 31.1],
          [121.7, 31.1],
          [121.6, 31.3],
        ],
      },
    });
    const route = await fence({
      name: '干线',
      fenceType: 'route',
      geometry: {
        path: [
          [121.5, 31.1],
          [121.6, 31.2],
          [121.7, 31.2],
        ],
        width: 60,
      },
    });
    for (const f of [circle, rect, poly, route]) {
      const r = await h.s.call(hd, 'POST', url(id, 'fence'), { fenceId: f, action: 'set', waitMs: 5000 });
      expect(r.body).toMatchObject({ kind: 'fence', status: 'acked', request: { fenceId: f, action: 'set' } });
    }
    expect([...t.areas.keys()].sort()).toEqual([`circle:${circle}`, `polygon:${poly}`, `rectangle:${rect}`, `route:${route}`].sort());

    const c = lastOf(received, MsgId.SetCircleAreas).body;
    // Entry alarms to driver and platform (bits 2, 3), no exit alarms, the speed limit (bit 1).
    expect(c).toMatchObject({
      action: 1,
      areas: [
        {
          id: circle,
          attributes: 0x0e,
          centre: { latitude: 31.2, longitude: 121.6 },
          radius: 500,
          maxSpeed: 40,
          overspeedSeconds: 10,
          name: '仓库',
        },
      ],
    });
    const r = lastOf(received, MsgId.SetRectangleAreas).body.areas[0];
    expect(r).toMatchObject({
      id: rect,
      attributes: 0x3c,
      topLeft: { latitude: 31.3, longitude: 121.5 },
      bottomRight: { latitude: 31.1, longitude: 121.7 },
    });
    expect(lastOf(received, MsgId.SetPolygonArea).body).toMatchObject({
      id: poly,
      vertices: [
        { latitude: 31.1, longitude: 121.5 },
        { latitude: 31.1, longitude: 121.7 },
        { latitude: 31.3, longitude: 121.6 },
      ],
    });
    const rt = lastOf(received, MsgId.SetRoute).body;
    expect(rt.points.map((p) => [p.pointId, p.width, p.point.longitude])).toEqual([
      [1, 60, 121.5],
      [2, 60, 121.6],
      [3, 60, 121.7],
    ]);

    const del = await h.s.call(hd, 'POST', url(id, 'fence'), { fenceId: rect, action: 'delete', waitMs: 5000 });
    expect(del.body).toMatchObject({ msgId: '0x8603', status: 'acked' });
    expect(lastOf(received, MsgId.DeleteRectangleAreas).body).toEqual({ ids: [rect] });
    expect(t.areas.has(`rectangle:${rect}`)).toBe(false);
    expect(t.areas.size).toBe(3);
    await t.end();
  });

  it('refuses a fence a terminal cannot hold, or one the caller cannot see, in the caller’s language, sending nothing', async () => {
    const phone = demoTerminal(3);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    const district = await fence({ name: '区县', fenceType: 'district', geometry: { districtCode: '330106' } });
    const wide = await fence({
      name: '宽路',
      fenceType: 'route',
      geometry: {
        path: [
          [121.5, 31.1],
          [121.6, 31.2],
        ],
        width: 300,
      },
    });
    // 200 vertices: past one packet's 1023 bytes.
    const ring = Array.from({ length: 200 }, (_, i) => [
      121.6 + 0.1 * Math.cos((i / 200) * 2 * Math.PI),
      31.2 + 0.1 * Math.sin((i / 200) * 2 * Math.PI),
    ]);
    const big = await fence({ name: '大围栏', fenceType: 'polygon', geometry: { points: ring } });
    const across = await fence({
      name: '跨线',
      fenceType: 'polygon',
      geometry: {
        points: [
          [-0.5, 51.4],
          [0.3, 51.4],
          [0.1, 51.6],
        ],
      },
    });
    const hnAdmin = await h.s.memberToken('HN', 'administrator');
    const elsewhere = await fence({ name: '深圳', fenceType: 'circle', geometry: { center: [114, 22.5], radius: 300 } }, hnAdmin);
    const cases: Array<[number, string, string]> = [
      [district, 'zh-CN', '行政区域围栏无法下发到终端'],
      [district, 'en-US', 'A district fence cannot be sent to a terminal'],
      [wide, 'es-ES', 'La ruta es más ancha que los 255 m que admite un terminal'],
      [big, 'ja-JP', 'ジオフェンスの点が多すぎて、端末の 1 メッセージ（1023 バイト）に収まりません'],
      [across, 'en-US', 'The fence crosses the equator or the prime meridian, which a terminal cannot hold'],
    ];
    for (const [fenceId, lang, message] of cases) {
      const r = await h.s.call(hd, 'POST', url(id, 'fence'), { fenceId, action: 'set' }, lang);
      expect(r).toMatchObject({ status: 400, body: { message, errors: [{ field: 'fenceId' }] } });
    }
    const unseen = await h.s.call(hd, 'POST', url(id, 'fence'), { fenceId: elsewhere, action: 'set' });
    expect(unseen.status).toBe(400);
    expect(unseen.body.errors).toMatchObject([{ field: 'fenceId', key: 'validation.refNotFound' }]);
    const missing = await h.s.call(hd, 'POST', url(id, 'fence'), { fenceId: 2147483647, action: 'delete' });
    expect(missing.body.errors).toMatchObject([{ field: 'fenceId', key: 'validation.refNotFound' }]);
    // Nothing went down (a command sent after them arrives, so they would have), nothing was recorded.
    expect((await h.s.call(admin, 'POST', url(id, 'location'), { waitMs: 5000 })).body.status).toBe('acked');
    expect(received.filter((m) => m.msgId >= MsgId.SetCircleAreas && m.msgId <= MsgId.DeleteRoutes)).toEqual([]);
    const rows = await h.s.call(admin, 'GET', `/api/vehicle/terminal/${id}/command?limit=200`);
    expect(
      rows.body.filter((c: { request: { fenceId?: number } }) => [district, wide, big, across, elsewhere].includes(c.request.fenceId ?? 0)),
    ).toEqual([]);
    await t.end();
  });

  it.each([
    ['tracking', { interval: 70000, duration: 1 }, 'interval'],
    ['tracking', { interval: 5 }, 'duration'],
    ['tracking', { interval: 5, duration: -1 }, 'duration'],
    ['vehicleControl', { doors: 'open' }, 'doors'],
    ['vehicleControl', {}, 'doors'],
    ['fence', { fenceId: 1 }, 'action'],
    ['fence', { fenceId: 0, action: 'set' }, 'fenceId'],
    ['fence', { fenceId: 1, action: 'move' }, 'action'],
    ['attributes', { all: true }, 'all'],
  ])('answers a bad %s body with 400 naming the field (%#)', async (kind, body, field) => {
    const id = await terminalIdOf(h.s, demoTerminal(9));
    const r = await h.s.call(admin, 'POST', url(id, kind), body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('needs the terminal-command code and the terminal in the caller’s subtree; each command is audited', async () => {
    const phone = demoTerminal(13);
    const id = await terminalIdOf(h.s, phone);
    const hnAdmin = await h.s.memberToken('HN', 'administrator');
    const hdUser = await h.s.memberToken('HD', 'orgUser');
    for (const [kind, body] of [
      ['attributes', {}],
      ['tracking', { interval: 5, duration: 60 }],
      ['vehicleControl', { doors: 'lock' }],
      ['fence', { fenceId: 1, action: 'set' }],
    ] as const) {
      expect((await h.s.call(hnAdmin, 'POST', url(id, kind), body)).status).toBe(404);
      expect((await h.s.call(hdUser, 'POST', url(id, kind), body)).status).toBe(403);
    }
    // Offline: refused, audited as a failed attempt.
    const offline = await h.s.call(hd, 'POST', url(id, 'vehicleControl'), { doors: 'unlock' }, 'en-US');
    expect(offline).toMatchObject({ status: 406, body: { message: 'The terminal is offline; the command cannot be sent' } });
    const t = h.terminal(phone);
    await t.connect();
    const ok = await h.s.call(hd, 'POST', url(id, 'vehicleControl'), { doors: 'lock', waitMs: 5000 });
    expect(ok.body.status).toBe('acked');
    const audit = await h.s.database.db
      .selectFrom('audit_log')
      .select(['target', 'success', 'detail'])
      .where('action', '=', 'terminalCommand')
      .where('target', '=', phone)
      .orderBy('id')
      .execute();
    const detail = (d: unknown) => (typeof d === 'string' ? JSON.parse(d) : d);
    expect(audit.map((a) => [a.success, detail(a.detail)])).toEqual([
      [false, { kind: 'vehicleControl', request: { doors: 'unlock' }, commandId: null }],
      [true, { kind: 'vehicleControl', request: { doors: 'lock' }, commandId: ok.body.id }],
    ]);
    await t.end();
  });
});
