import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

jest.setTimeout(180_000);

/** SPEC §7's vehicle/{a}/{b} (owner), reset/{a}/{b}, vehicle/query/{x}, driver/{a}/{b} and feedback/{a}/{b}. */
describe.each(BACKENDS)('vehicle assignments on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  /** A vehicle of the organisation (by code) with its terminal. */
  const vehicleOf = async (orgCode: string) => {
    const r = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', {
      criteria: { orgId: await s.orgId(orgCode) },
      pageIndex: 1,
      pageSize: 5,
    });
    return r.body.data[0] as { id: number; licence: string; terminalId: number | null; orgId: number };
  };

  it('sets and clears a vehicle’s app-account owner, refusing members who are not app accounts of the subtree', async () => {
    const v = await vehicleOf('HD-SH');
    const owner = await s.addMember('HD', 'orgUser', []);
    const web = await s.addMember('HD', 'orgUser', []);
    const stranger = await s.addMember('HN', 'orgUser', []);
    for (const m of [owner, stranger])
      await sql`INSERT INTO member_application (member_id, application) VALUES (${m.id}, 'vehicle-app') ON CONFLICT DO NOTHING`.execute(
        s.database.db,
      );
    const set = await s.call(admin, 'PUT', `/api/vehicle/vehicle/${v.id}/${owner.id}`);
    expect(set.status).toBe(200);
    expect(set.body.ownerMemberId).toBe(owner.id);
    const stored = await sql<{ owner: number | null }>`SELECT owner_member_id AS owner FROM vehicle WHERE id = ${v.id}`.execute(
      s.database.db,
    );
    expect(stored.rows[0].owner).toBe(owner.id);
    // Read back, for the console's owner dialog: any member who sees the vehicle; not one outside its subtree.
    const named = await sql<{ login: string; name: string }>`SELECT login_name AS login, name FROM member WHERE id = ${owner.id}`.execute(
      s.database.db,
    );
    const reader = await s.memberToken('HD', 'orgUser', []);
    expect(await s.call(reader, 'GET', `/api/vehicle/vehicle/${v.id}/owner`)).toMatchObject({
      status: 200,
      body: { memberId: owner.id, loginName: named.rows[0].login, name: named.rows[0].name },
    });
    expect((await s.call(await s.memberToken('HN', 'orgUser', []), 'GET', `/api/vehicle/vehicle/${v.id}/owner`)).status).toBe(404);
    expect((await s.call(reader, 'GET', '/api/vehicle/vehicle/0/owner')).status).toBe(400);
    const notApp = await s.call(admin, 'PUT', `/api/vehicle/vehicle/${v.id}/${web.id}`);
    expect(notApp.status).toBe(406);
    expect(notApp.body.message).toBe('车主必须是本组织范围内的 App 账号');
    // An HD member may not name HN's app account, nor touch HN's vehicles.
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-edit']);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/${v.id}/${stranger.id}`)).status).toBe(406);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/${(await vehicleOf('HN-SZ')).id}/0`)).status).toBe(404);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/${v.id}/0`)).body.ownerMemberId).toBeNull();
    expect((await s.call(hd, 'GET', `/api/vehicle/vehicle/${v.id}/owner`)).body).toEqual({ memberId: null, loginName: null, name: null });
    expect((await s.call(await s.memberToken('HD', 'orgUser', []), 'PUT', `/api/vehicle/vehicle/${v.id}/0`)).status).toBe(403);
  });

  it('replaces a vehicle’s terminal with a free one in one step, refusing one bound elsewhere', async () => {
    const v = await vehicleOf('HD-SH');
    const other = await vehicleOf('HD-HZ');
    const t = await s.call(admin, 'PUT', '/api/vehicle/terminal', {
      terminalNo: 'RESET01',
      sim: '13900000201',
      orgId: await s.orgId('HD-SH'),
    });
    expect(t.status).toBe(201);
    const old = v.terminalId;
    const r = await s.call(admin, 'PUT', `/api/vehicle/vehicle/reset/${v.id}/${t.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body.terminalId).toBe(t.body.id);
    // The old terminal is free again: another vehicle may take it... but not one that is bound.
    const taken = await s.call(admin, 'PUT', `/api/vehicle/vehicle/reset/${v.id}/${other.terminalId}`);
    expect(taken.status).toBe(406);
    expect(taken.body.message).toBe('该终端已绑定其他车辆');
    expect((await s.call(admin, 'PUT', `/api/vehicle/vehicle/reset/${v.id}/${old}`)).body.terminalId).toBe(old);
    expect((await s.call(admin, 'PUT', `/api/vehicle/vehicle/reset/${v.id}/99999999`)).status).toBe(404);
  });

  it('finds vehicles by part of the licence or VIN inside the caller’s subtree, those starting with it first', async () => {
    const v = await vehicleOf('HD-SH');
    const part = v.licence.slice(1, 4);
    const r = await s.call(admin, 'GET', `/api/vehicle/vehicle/query/${encodeURIComponent(part)}`);
    expect(r.status).toBe(200);
    expect(r.body.map((x: { value: number }) => x.value)).toContain(v.id);
    expect(r.body.every((x: { label: string }) => x.label.includes(part))).toBe(true);
    const hn = await s.memberToken('HN', 'orgUser', []);
    expect((await s.call(hn, 'GET', `/api/vehicle/vehicle/query/${encodeURIComponent(v.licence)}`)).body).toEqual([]);
    expect((await s.call(admin, 'GET', `/api/vehicle/vehicle/query/${'x'.repeat(30)}`)).status).toBe(400);
  });

  it('assigns and clears a vehicle’s driver from the subtree', async () => {
    const v = await vehicleOf('HD-SH');
    const d = await s.call(admin, 'PUT', '/api/vehicle/driver', { name: '赵师傅', mobile: '13900000301', orgId: await s.orgId('HD-SH') });
    expect(d.status).toBe(201);
    const r = await s.call(admin, 'PUT', `/api/vehicle/driver/${v.id}/${d.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ driverId: d.body.id, driverName: '赵师傅' });
    const hnDriver = await s.call(admin, 'PUT', '/api/vehicle/driver', {
      name: '钱师傅',
      mobile: '13900000302',
      orgId: await s.orgId('HN-SZ'),
    });
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-edit']);
    expect((await s.call(hd, 'PUT', `/api/vehicle/driver/${v.id}/${hnDriver.body.id}`)).status).toBe(404);
    const cleared = await s.call(hd, 'PUT', `/api/vehicle/driver/${v.id}/0`);
    expect(cleared.status).toBe(200);
    // The answer leaves out empty fields; the row holds no driver.
    expect(cleared.body.driverId ?? null).toBeNull();
    const stored = await sql<{ driverId: number | null }>`SELECT driver_id AS "driverId" FROM vehicle WHERE id = ${v.id}`.execute(
      s.database.db,
    );
    expect(stored.rows[0].driverId).toBeNull();
  });

  it('moves a feedback between its states, behind feedback-handle', async () => {
    const f = await s.call(admin, 'POST', '/api/vehicle/feedback', { title: '轨迹卡顿', content: '回放卡顿' });
    expect(f.status).toBe(201);
    const r = await s.call(admin, 'PUT', `/api/vehicle/feedback/${f.body.id}/processing`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('processing');
    expect((await s.call(admin, 'PUT', `/api/vehicle/feedback/${f.body.id}/closed`)).status).toBe(400);
    expect((await s.call(await s.memberToken('HD', 'orgUser', []), 'PUT', `/api/vehicle/feedback/${f.body.id}/resolved`)).status).toBe(403);
  });
});
