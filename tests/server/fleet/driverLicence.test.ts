import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

const URL = '/api/vehicle/driver/licenses';

interface Expiry {
  id: number;
  name: string;
  licenseExpire: string;
  daysLeft: number;
  orgName: string;
  vehicles: Array<{ id: number; licence: string }>;
}

/** SPEC §7 `POST driver/licenses`: drivers whose licence has expired or expires soon, by expiry. */
describe.each(BACKENDS)('driver licence expiry on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  /** The database's today plus `days`, as 'YYYY-MM-DD' (the route counts from the database's date). */
  let dayFrom: (days: number) => string;
  const ids: Record<string, number> = {};
  const addDriver = async (orgCode: string, name: string, mobile: string, expiresIn: number | null, licenseNo?: string) => {
    const r = await s.call(admin, 'PUT', '/api/vehicle/driver', {
      name,
      mobile,
      orgId: await s.orgId(orgCode),
      licenseNo: licenseNo ?? `LIC${mobile.slice(-6)}`,
      licenseClass: 'B2',
      ...(expiresIn === null ? {} : { licenseExpire: dayFrom(expiresIn) }),
    });
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
    return r.body.id as number;
  };

  beforeAll(async () => {
    const today = (await sql<{ d: string }>`SELECT to_char(CURRENT_DATE, 'YYYY-MM-DD') AS d`.execute(s.database.db)).rows[0].d;
    dayFrom = (days) => {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + days);
      return d.toISOString().slice(0, 10);
    };
    // Every demo licence expires from mid-2027 on, more than 30 days ahead: only these can show.
    await addDriver('HD-SH', '过期甲', '13700000001', -10);
    await addDriver('HD-SH', '今日乙', '13700000002', 0);
    await addDriver('HD-HZ', '将到丙', '13700000003', 20);
    await addDriver('HD-HZ', '边界丁', '13700000004', 30);
    await addDriver('HD-HZ', '稍远戊', '13700000005', 31);
    await addDriver('HN-SZ', '华南己', '13700000006', -3);
    await addDriver('HD-SH', '无证庚', '13700000007', null);
    // 过期甲 drives two vehicles of 上海车队; one 华南 vehicle names it too (the platform placed it).
    const vehicles = await sql<{ id: number; licence: string; code: string }>`
      SELECT v.id, v.licence, o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code IN ('HD-SH', 'HN-SZ') ORDER BY o.code, v.id`.execute(
      s.database.db,
    );
    const [a, b] = vehicles.rows.filter((v) => v.code === 'HD-SH');
    const hn = vehicles.rows.find((v) => v.code === 'HN-SZ')!;
    for (const v of [a, b, hn]) await sql`UPDATE vehicle SET driver_id = ${ids['过期甲']} WHERE id = ${v.id}`.execute(s.database.db);
    ids.vehicleA = a.id;
    ids.vehicleB = b.id;
  });

  const names = (body: { data: Expiry[] }) => body.data.map((d) => d.name);

  it('lists expired licences and those expiring within the days asked for, by expiry, with the days left and vehicles', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['driver-edit']);
    const r = await s.call(hd, 'POST', URL, {});
    expect(r.status).toBe(200);
    // Default 30 days: the 31-day one, the one without a licence date and 华南's are left out.
    expect(names(r.body)).toEqual(['过期甲', '今日乙', '将到丙', '边界丁']);
    expect(r.body).toMatchObject({ total: 4, totalExact: true, pageIndex: 1, pageSize: 20 });
    expect(r.body.data.map((d: Expiry) => d.daysLeft)).toEqual([-10, 0, 20, 30]);
    const [expired] = r.body.data;
    expect(expired).toEqual({
      id: ids['过期甲'],
      name: '过期甲',
      mobile: '13700000001',
      orgId: await s.orgId('HD-SH'),
      orgName: '上海车队',
      licenseNo: 'LIC000001',
      licenseClass: 'B2',
      licenseExpire: dayFrom(-10),
      daysLeft: -10,
      status: 'active',
      // Only the vehicles the caller may see, by licence.
      vehicles: expect.arrayContaining([expect.objectContaining({ id: ids.vehicleA }), expect.objectContaining({ id: ids.vehicleB })]),
    });
    expect(expired.vehicles).toHaveLength(2);
    expect(expired.vehicles.map((v: { licence: string }) => v.licence)).toEqual(
      [...expired.vehicles.map((v: { licence: string }) => v.licence)].sort(),
    );
    expect(r.body.data[1].vehicles).toEqual([]);

    const within = async (withinDays: number | null) => names((await s.call(hd, 'POST', URL, { criteria: { withinDays } })).body);
    expect(await within(0)).toEqual(['过期甲', '今日乙']);
    expect(await within(31)).toEqual(['过期甲', '今日乙', '将到丙', '边界丁', '稍远戊']);
    expect(await within(null)).toEqual(['过期甲', '今日乙', '将到丙', '边界丁']);
    // No body at all: the defaults.
    expect(names((await s.call(hd, 'POST', URL)).body)).toEqual(['过期甲', '今日乙', '将到丙', '边界丁']);
    // A year ahead also reaches demo licences (they expire on 30 June from 2027 on), always after these.
    const year = await s.call(hd, 'POST', URL, { criteria: { withinDays: 365 } });
    expect(year.body.data.every((d: Expiry) => d.licenseExpire <= dayFrom(365))).toBe(true);
    expect(year.body.data.slice(0, 5).map((d: Expiry) => d.name)).toEqual(['过期甲', '今日乙', '将到丙', '边界丁', '稍远戊']);
    // Latest expiry first when asked.
    const latestFirst = await s.call(hd, 'POST', URL, {
      criteria: { withinDays: 31 },
      order: { property: 'licenseExpire', direction: 'DESC' },
    });
    expect(names(latestFirst.body)).toEqual(['稍远戊', '边界丁', '将到丙', '今日乙', '过期甲']);
  });

  it('pages with the standard paging body, the total counted past the first page', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['driver-edit']);
    const page = async (pageIndex: number) =>
      (await s.call(hd, 'POST', URL, { criteria: { withinDays: 31 }, pageIndex, pageSize: 2 })).body;
    const [p1, p2, p3, p4] = [await page(1), await page(2), await page(3), await page(4)];
    expect([names(p1), names(p2), names(p3), names(p4)]).toEqual([['过期甲', '今日乙'], ['将到丙', '边界丁'], ['稍远戊'], []]);
    expect([p1.total, p2.total, p3.total, p4.total]).toEqual([5, 5, 5, 5]);
    expect(p2).toMatchObject({ pageIndex: 2, pageSize: 2, totalExact: true });
  });

  it("keeps to the caller's organisation subtree", async () => {
    const sh = await s.memberToken('HD-SH', 'orgUser', ['driver-edit']);
    expect(names((await s.call(sh, 'POST', URL, { criteria: { withinDays: 31 } })).body)).toEqual(['过期甲', '今日乙']);
    const hn = await s.memberToken('HN', 'orgUser', ['driver-edit']);
    const south = (await s.call(hn, 'POST', URL, {})).body;
    expect(names(south)).toEqual(['华南己']);
    expect(south.data[0]).toMatchObject({ daysLeft: -3, orgName: '深圳车队', vehicles: [] });
    // The platform sees every organisation's, and every vehicle a driver is assigned to.
    const all = (await s.call(admin, 'POST', URL, {})).body;
    expect(names(all)).toEqual(['过期甲', '华南己', '今日乙', '将到丙', '边界丁']);
    expect(all.data[0].vehicles).toHaveLength(3);
    const hz = await s.memberToken('HD-HZ', 'orgUser', ['driver-edit']);
    expect(names((await s.call(hz, 'POST', URL, { criteria: { withinDays: 0 } })).body)).toEqual([]);
  });

  it('refuses bad input in the caller language, and members without the code', async () => {
    for (const withinDays of [-1, 366, 1.5, '30', true]) {
      const r = await s.call(admin, 'POST', URL, { criteria: { withinDays } });
      expect({ withinDays, status: r.status, message: r.body.message }).toEqual({
        withinDays,
        status: 400,
        message: '到期天数须为 0–365 的整数',
      });
      expect(r.body.errors).toEqual([expect.objectContaining({ field: 'criteria.withinDays', message: '到期天数须为 0–365 的整数' })]);
    }
    const en = await s.call(admin, 'POST', URL, { criteria: { withinDays: 400 } }, 'en-US');
    expect(en.body.message).toBe('Days ahead must be a whole number from 0 to 365');
    expect((await s.call(admin, 'POST', URL, { criteria: { withinDays: 400 } }, 'ja-JP')).body.message).toBe(
      '期限までの日数は 0～365 の整数で入力してください',
    );
    const unknown = await s.call(admin, 'POST', URL, { criteria: { name: '过期甲' } }, 'en-US');
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Cannot search by "name"' } });
    const sort = await s.call(admin, 'POST', URL, { order: { property: 'name', direction: 'ASC' } });
    expect(sort).toMatchObject({ status: 400, body: { message: '不支持按“name”排序' } });
    for (const bad of [
      { pageIndex: 0 },
      { pageSize: 0 },
      { pageSize: 10001 },
      { pageIndex: 'x' },
      { order: { direction: 'sideways' } },
      { extra: 1 },
      { criteria: 'all' },
    ]) {
      expect({ bad, status: (await s.call(admin, 'POST', URL, bad)).status }).toEqual({ bad, status: 400 });
    }
    const nobody = await s.memberToken('HD', 'orgUser', ['driver-add', 'driver-import']);
    expect((await s.call(nobody, 'POST', URL, {})).status).toBe(403);
    expect((await s.call(null, 'POST', URL, {})).status).toBe(401);
  });
  it('checks licence numbers and names the field of a duplicate, in the caller language', async () => {
    const body = async (licenseNo: string, mobile: string) => ({
      name: '证号测',
      mobile,
      orgId: await s.orgId('HD-SH'),
      licenseNo,
      licenseClass: 'B2',
    });
    for (const bad of ['abc', 'ABCDEFG', '1234', '12 34', '京A-12345?']) {
      const r = await s.call(admin, 'PUT', '/api/vehicle/driver', await body(bad, '13700000101'));
      expect({ bad, status: r.status, message: r.body.message }).toEqual({
        bad,
        status: 400,
        message: expect.stringContaining('至少含一位数字'),
      });
      expect(r.body.errors).toEqual([expect.objectContaining({ field: 'licenseNo' })]);
    }
    const en = await s.call(admin, 'PUT', '/api/vehicle/driver', await body('abc', '13700000101'), 'en-US');
    expect(en.body.message).toMatch(/^Licence number must be 5–32 letters, digits or hyphens/i);
    // A Chinese licence (the 18-sign identity number, lower-case x accepted) and a foreign one.
    for (const [good, mobile] of [
      ['31010119800101123x', '13700000102'],
      ['DL-1234567', '13700000103'],
    ]) {
      expect((await s.call(admin, 'PUT', '/api/vehicle/driver', await body(good, mobile))).status).toBe(201);
    }
    const dup = await s.call(admin, 'PUT', '/api/vehicle/driver', await body('DL-1234567', '13700000104'));
    expect(dup.status).toBe(406);
    expect(dup.body.message).not.toContain('{');
    expect(dup.body.errors.length).toBeGreaterThan(0);
    for (const e of dup.body.errors) expect(e.message).not.toContain('{');
    expect(dup.body.errors).toContainEqual(expect.objectContaining({ field: 'licenseNo', message: expect.stringMatching(/已存在$/) }));
  });
});
