import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

const url = (vendee: string | number, q: string, query = '') =>
  `/api/vehicle/device/terminal/suggest/vendee-${vendee}/${encodeURIComponent(q)}${query}`;

/** SPEC §7 `device/terminal/suggest/vendee-{x}/{q}`: the bind dialog's terminal search. */
describe.each(BACKENDS)('terminal suggestions on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const addTerminal = async (orgCode: string, terminalNo: string, sim: string) => {
    const r = await s.call(admin, 'PUT', '/api/vehicle/terminal', { terminalNo, sim, orgId: await s.orgId(orgCode) });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const numbers = (body: Array<{ terminalNo: string }>) => body.map((x) => x.terminalNo);

  let free: Record<string, number>;
  beforeAll(async () => {
    free = {
      FREE01: await addTerminal('HD-SH', 'FREE01', '13900000001'),
      FREE02: await addTerminal('HD-HZ', 'FREE02', '13900000002'),
      ZFREE9: await addTerminal('HD', 'ZFREE9', '13900000009'),
      FREE03: await addTerminal('HN-SZ', 'FREE03', '13900000003'),
    };
  });

  it("suggests the free terminals of the caller's subtree whose number or SIM contains the text, those starting with it first", async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-bind']);
    const r = await s.call(hd, 'GET', url(0, 'free'));
    expect(r.status).toBe(200);
    expect(numbers(r.body)).toEqual(['FREE01', 'FREE02', 'ZFREE9']);
    expect(r.body[0]).toEqual({ value: free.FREE01, label: 'FREE01', terminalNo: 'FREE01', sim: '13900000001', licence: null });
    // By SIM, starting or containing.
    expect(numbers((await s.call(hd, 'GET', url(0, '1390000000'))).body)).toEqual(['FREE01', 'FREE02', 'ZFREE9']);
    expect(numbers((await s.call(hd, 'GET', url(0, '00009'))).body)).toEqual(['ZFREE9']);
    // Every demo terminal is bound: none is offered unless asked for, then with its vehicle.
    expect((await s.call(hd, 'GET', url(0, '80800000000'))).body).toEqual([]);
    const bound = await s.call(hd, 'GET', url(0, '8080', '?free=false&limit=50'));
    expect(bound.body).toHaveLength(16); // HD's two teams, 8 each; HN's are not in the subtree
    expect(bound.body.every((x: { licence: string | null }) => /^(沪A|浙A)/.test(x.licence ?? ''))).toBe(true);
    expect((await s.call(hd, 'GET', url(0, '8080', '?free=false&limit=3'))).body).toHaveLength(3);
  });

  it('narrows to the vendee organisation and its subtree, inside the caller scope only', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-bind']);
    expect(numbers((await s.call(hd, 'GET', url(await s.orgId('HD-HZ'), 'FREE'))).body)).toEqual(['FREE02']);
    expect(numbers((await s.call(hd, 'GET', url(await s.orgId('HD'), 'FREE'))).body)).toEqual(['FREE01', 'FREE02', 'ZFREE9']);
    // Another branch of the tree, or an organisation that does not exist: 404, as if it did not exist.
    expect((await s.call(hd, 'GET', url(await s.orgId('HN'), 'FREE'))).status).toBe(404);
    expect((await s.call(hd, 'GET', url(999999, 'FREE'))).status).toBe(404);
    // A member of a team sees only the team's terminals, and not its parent's.
    const hz = await s.memberToken('HD-HZ', 'orgUser', ['vehicle-bind']);
    expect(numbers((await s.call(hz, 'GET', url(0, 'FREE'))).body)).toEqual(['FREE02']);
    expect((await s.call(hz, 'GET', url(await s.orgId('HD'), 'FREE'))).status).toBe(404);
    const hn = await s.memberToken('HN', 'orgUser', ['vehicle-bind']);
    expect(numbers((await s.call(hn, 'GET', url(0, 'FREE'))).body)).toEqual(['FREE03']);
    // The platform sees everyone's.
    expect(numbers((await s.call(admin, 'GET', url(0, 'FREE'))).body)).toEqual(['FREE01', 'FREE02', 'FREE03', 'ZFREE9']);
  });

  it('stops offering a terminal once it is bound, and offers it again after unbinding', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-bind', 'vehicle-unbind']);
    const v = (await s.call(hd, 'POST', '/api/vehicle/vehicle/query', { criteria: { licence: '沪A' }, pageSize: 1 })).body.data[0];
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/unbind/${v.id}`)).status).toBe(200);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${v.id}/${free.FREE01}`)).status).toBe(200);
    expect(numbers((await s.call(hd, 'GET', url(0, 'FREE'))).body)).toEqual(['FREE02', 'ZFREE9']);
    expect((await s.call(hd, 'GET', url(0, 'FREE01', '?free=false'))).body).toEqual([
      expect.objectContaining({ terminalNo: 'FREE01', licence: v.licence }),
    ]);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/unbind/${v.id}`)).status).toBe(200);
    expect(numbers((await s.call(hd, 'GET', url(0, 'FREE'))).body)).toEqual(['FREE01', 'FREE02', 'ZFREE9']);
  });

  it('refuses bad input in words and members without the bind code', async () => {
    const message = '请输入1-30位字母或数字的终端编号或 SIM 卡号';
    for (const q of ['', '沪A', 'a b', 'x'.repeat(31), "1'--"]) {
      const r = await s.call(admin, 'GET', url(0, q));
      expect({ q, status: r.status, message: r.body.message }).toEqual({ q, status: 400, message });
    }
    expect((await s.call(admin, 'GET', url(0, '沪A'), undefined, 'en-US')).body.message).toBe(
      'Enter 1–30 letters or digits of a terminal number or SIM number',
    );
    const badOrg = await s.call(admin, 'GET', url('abc', 'FREE'));
    expect(badOrg).toMatchObject({ status: 400, body: { message: '所属组织必须是整数' } });
    expect((await s.call(admin, 'GET', url(-1, 'FREE'))).status).toBe(400);
    expect((await s.call(admin, 'GET', url(0, 'FREE', '?limit=0'))).status).toBe(400);
    expect((await s.call(admin, 'GET', url(0, 'FREE', '?limit=51'))).status).toBe(400);
    expect((await s.call(admin, 'GET', url(0, 'FREE', '?free=maybe'))).status).toBe(400);
    expect((await s.call(admin, 'GET', url(0, 'FREE', '?color=red'))).status).toBe(400);
    const nobody = await s.memberToken('HD', 'orgUser', ['vehicle-unbind']);
    expect((await s.call(nobody, 'GET', url(0, 'FREE'))).status).toBe(403);
    expect((await s.call(null, 'GET', url(0, 'FREE'))).status).toBe(401);
  });
  it('offers the add-vehicle form only free terminals (options ?unusedBy=vehicle.terminalId), and refuses any other relation', async () => {
    const hd = await s.memberToken('HD', 'orgUser', []);
    const opts = (query: string, token = hd) => s.call(token, 'GET', `/api/vehicle/terminal/options?limit=1000${query}`);
    const all = await opts('');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(16); // the bound demo terminals and the free ones
    const freeOnly = await opts('&unusedBy=vehicle.terminalId');
    expect(freeOnly.status).toBe(200);
    const labels = (r: { body: Array<{ label: string }> }) => r.body.map((o) => o.label);
    const boundNos = async () =>
      new Set(
        ((await s.call(hd, 'POST', '/api/vehicle/vehicle/query', { pageSize: 1000 })).body.data as Array<{ terminalNo?: string }>).flatMap(
          (v) => v.terminalNo ?? [],
        ),
      );
    const bound = await boundNos();
    expect(bound.size).toBeGreaterThanOrEqual(15);
    // Every terminal of the subtree that no vehicle uses (an earlier test may have freed a demo one), and no other.
    expect(labels(freeOnly)).toEqual(labels(all).filter((n) => !bound.has(n)));
    expect(labels(freeOnly)).toEqual(expect.arrayContaining(['FREE01', 'FREE02', 'ZFREE9']));
    expect(labels(await opts('&unusedBy=vehicle.terminalId&q=free02'))).toEqual(['FREE02']);
    // Binding one takes it out of the offer.
    const vehicle = await s.call(admin, 'POST', '/api/vehicle/vehicle', {
      licence: '沪A5F001',
      orgId: await s.orgId('HD-SH'),
      terminalId: free.FREE01,
    });
    expect(vehicle.status).toBe(201);
    const after = labels(await opts('&unusedBy=vehicle.terminalId'));
    expect(after).not.toContain('FREE01');
    expect(after).toEqual(labels(freeOnly).filter((n) => n !== 'FREE01'));
    // Only a relation to this entity marked free: never an arbitrary table or column.
    for (const bad of ['vehicle.driverId', 'vehicle.nothing', 'member.terminalId', 'constructor.name']) {
      const r = await opts(`&unusedBy=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(`无法按“${bad}”筛选未被使用的选项`);
    }
    expect((await opts('&unusedBy=vehicle;drop')).status).toBe(400);
    expect((await s.call(admin, 'DELETE', `/api/vehicle/vehicle/${vehicle.body.id}`)).status).toBe(204);
  });
});
