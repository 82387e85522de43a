import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';

describe.each(BACKENDS)('generic schema CRUD on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  describe('vehicle brand', () => {
    it('creates (201), reads, updates partially (200) and deletes (204)', async () => {
      const created = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', {
        name: '红岩',
        manufacturer: '上汽红岩',
        id: 999,
        createdAt: 'ignored',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: '红岩',
        manufacturer: '上汽红岩',
        enabled: true,
        orgId: await s.orgId('FS'),
        orgName: '车管星平台',
      });
      expect(created.body.id).not.toBe(999);
      const id = created.body.id;

      expect((await s.call(admin, 'GET', `/api/vehicle/vehicleBrand/query/${id}`)).body.name).toBe('红岩');
      const updated = await s.call(admin, 'PUT', `/api/vehicle/vehicleBrand/${id}`, { country: '中国', manufacturer: '' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: '红岩', country: '中国' });
      expect(updated.body.manufacturer).toBeUndefined(); // '' clears an optional field

      expect((await s.call(admin, 'DELETE', `/api/vehicle/vehicleBrand/${id}`)).status).toBe(204);
      expect((await s.call(admin, 'GET', `/api/vehicle/vehicleBrand/query/${id}`)).status).toBe(404);
    });

    it.each([
      ['zh-CN', '品牌名称不能为空'],
      ['en-US', 'Brand name is required'],
      ['es-ES', 'Nombre de la marca es obligatorio'],
      ['ja-JP', 'ブランド名は必須です'],
    ])('answers an invalid body with 400 and the %s message', async (lang, message) => {
      const r = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { manufacturer: 'x' }, lang);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, message, errors: [{ field: 'name', key: 'validation.required', message }] });
    });

    it('reports every bad field, each in words, and keeps nothing', async () => {
      const r = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', {
        name: 'x'.repeat(65),
        logo: 'javascript:alert(1)',
        enabled: 'yes',
        bogus: 1,
      });
      expect(r.status).toBe(400);
      const byField = Object.fromEntries(r.body.errors.map((e: { field: string; message: string }) => [e.field, e.message]));
      expect(byField).toEqual({
        name: '品牌名称最多64个字符',
        logo: '品牌标志链接必须以 http(s)、mailto 或 tel 开头',
        enabled: '启用的类型不正确',
        bogus: '不支持的字段：bogus',
      });
      const list = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: 'xxxxxxxx' } });
      expect(list.body.total).toBe(0);
    });

    it('answers a body that is not JSON with 400', async () => {
      const r = await s.app.inject({
        method: 'POST',
        url: '/api/vehicle/vehicleBrand',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(r.statusCode).toBe(400);
      expect(JSON.parse(r.body).message).toBe('请求内容不是有效的 JSON');
    });

    it('refuses a duplicate name with 406 and a readable message', async () => {
      expect((await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: '陕汽' })).status).toBe(201);
      const dup = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: '陕汽' });
      expect(dup.status).toBe(406);
      expect(dup.body).toMatchObject({ message: '品牌名称已存在', errors: [{ field: 'name' }] });
      const en = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: '陕汽' }, 'en-US');
      expect(en.body.message).toBe('Brand name already exists');
    });

    it('answers 404 for an unknown id on get, update and delete', async () => {
      expect((await s.call(admin, 'GET', '/api/vehicle/vehicleBrand/query/987654')).status).toBe(404);
      expect((await s.call(admin, 'PUT', '/api/vehicle/vehicleBrand/987654', { name: 'n' })).status).toBe(404);
      expect((await s.call(admin, 'DELETE', '/api/vehicle/vehicleBrand/987654')).status).toBe(404);
      expect((await s.call(admin, 'DELETE', '/api/vehicle/vehicleBrand/abc')).status).toBe(400);
      expect((await s.call(admin, 'DELETE', '/api/vehicle/vehicleBrand/99999999999')).status).toBe(400);
    });

    it('pages and sorts stably, with a total', async () => {
      for (const name of ['P-c', 'P-a', 'P-e', 'P-b', 'P-d', 'P-f', 'P-g']) {
        expect((await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name, country: 'PAGE' })).status).toBe(201);
      }
      const seen: string[] = [];
      for (let pageIndex = 1; pageIndex <= 3; pageIndex++) {
        const r = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', {
          criteria: { country: 'PAGE' },
          order: { property: 'name', direction: 'DESC' },
          pageIndex,
          pageSize: 3,
        });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ total: 7, pageIndex, pageSize: 3 });
        seen.push(...r.body.data.map((b: { name: string }) => b.name));
      }
      expect(seen).toEqual(['P-g', 'P-f', 'P-e', 'P-d', 'P-c', 'P-b', 'P-a']);
      const like = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: 'p-' }, pageSize: 100 });
      expect(like.body.total).toBe(7); // case-insensitive contains
      const literal = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: '%' } });
      expect(literal.body.total).toBe(0); // % is a character, not a wildcard
    });

    it('refuses criteria keys that are not searchable and orders that are not sortable (400)', async () => {
      const r = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { remark: 'x' } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('不支持按“remark”查询');
      const o = await s.call(
        admin,
        'POST',
        '/api/vehicle/vehicleBrand/query',
        { order: { property: 'remark', direction: 'ASC' } },
        'en-US',
      );
      expect(o.status).toBe(400);
      expect(o.body.message).toBe('Cannot sort by "remark"');
      const p = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { pageIndex: 0, pageSize: 100000 });
      expect(p.status).toBe(400);
      expect(p.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['pageIndex', 'pageSize']);
    });
  });

  describe('fuel type', () => {
    it('goes through create, range and enum search, update and delete', async () => {
      const a = await s.call(admin, 'POST', '/api/vehicle/fuelType', { name: 'LNG', category: 'gas', price: 5.1, unit: 'kg' });
      expect(a.status).toBe(201);
      const b = await s.call(admin, 'POST', '/api/vehicle/fuelType', { name: '98号汽油', category: 'gasoline', price: 9.2 });
      expect(b.body.unit).toBe('L'); // database default
      const range = await s.call(admin, 'POST', '/api/vehicle/fuelType/query', { criteria: { price: [5, 6] }, pageSize: 100 });
      expect(range.body.data.map((f: { name: string }) => f.name)).toContain('LNG');
      expect(range.body.data.every((f: { price: number }) => f.price >= 5 && f.price <= 6)).toBe(true);
      const cat = await s.call(admin, 'POST', '/api/vehicle/fuelType/query', { criteria: { category: 'gas', keyword: 'ln' } });
      expect(cat.body.data.map((f: { name: string }) => f.name)).toEqual(['LNG']);
      const bad = await s.call(admin, 'POST', '/api/vehicle/fuelType', { name: 'x', category: 'coal', price: -1 }, 'en-US');
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'category', message: 'Category has an invalid value' }),
          expect.objectContaining({ field: 'price', message: 'Unit price (CNY) must not be less than 0' }),
        ]),
      );
      const opts = await s.call(admin, 'GET', '/api/vehicle/fuelType/options?q=LN');
      expect(opts.body).toEqual([{ value: a.body.id, label: 'LNG' }]);
      expect((await s.call(admin, 'PUT', `/api/vehicle/fuelType/${a.body.id}`, { price: 4.9 })).body.price).toBe(4.9);
      expect((await s.call(admin, 'DELETE', `/api/vehicle/fuelType/${a.body.id}`)).status).toBe(204);
    });

    it('refuses to delete a fuel type vehicles use (406)', async () => {
      const hn = await s.memberToken('HN', 'administrator');
      const used = await s.call(hn, 'POST', '/api/vehicle/fuelType/query', { criteria: { keyword: '0号柴油' } });
      const r = await s.call(hn, 'DELETE', `/api/vehicle/fuelType/${used.body.data[0].id}`);
      expect(r.status).toBe(406);
      expect(r.body.message).toBe('该数据正在被其他数据使用，无法删除');
    });
  });

  describe('security', () => {
    it('answers 401 without a valid token and 403 without the action code', async () => {
      expect((await s.call(null, 'POST', '/api/vehicle/vehicleBrand/query', {})).status).toBe(401);
      expect((await s.call('not.a.token', 'POST', '/api/vehicle/vehicleBrand/query', {})).status).toBe(401);
      const user = await s.memberToken('HD', 'orgUser');
      expect((await s.call(user, 'POST', '/api/vehicle/vehicleBrand/query', {})).status).toBe(200);
      const r = await s.app.inject({
        method: 'POST',
        url: '/api/vehicle/vehicleBrand',
        headers: { authorization: `Bearer ${user}`, 'x-authority': 'vehicleBrand-add' },
        payload: { name: 'forged' },
      });
      expect(r.statusCode).toBe(403);
      expect(JSON.parse(r.body).message).toBe('没有权限！');
    });

    it("keeps one organisation's data invisible to another", async () => {
      const hd = await s.memberToken('HD', 'administrator');
      const hn = await s.memberToken('HN', 'administrator');
      const mine = await s.call(hd, 'POST', '/api/vehicle/vehicleBrand', { name: '华东专属' });
      expect(mine.body.orgId).toBe(await s.orgId('HD'));
      const id = mine.body.id;
      // The other organisation sees nothing of it, by list, by id, by options, and cannot touch it.
      const list = await s.call(hn, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: '华东专属' } });
      expect(list.body.total).toBe(0);
      expect((await s.call(hn, 'GET', `/api/vehicle/vehicleBrand/query/${id}`)).status).toBe(404);
      expect((await s.call(hn, 'PUT', `/api/vehicle/vehicleBrand/${id}`, { name: 'taken' })).status).toBe(404);
      expect((await s.call(hn, 'DELETE', `/api/vehicle/vehicleBrand/${id}`)).status).toBe(404);
      expect((await s.call(hn, 'GET', '/api/vehicle/vehicleBrand/query')).body.map((o: { label: string }) => o.label)).not.toContain(
        '华东专属',
      );
      // The same name is free in the other organisation.
      expect((await s.call(hn, 'POST', '/api/vehicle/vehicleBrand', { name: '华东专属' })).status).toBe(201);
      // A team below HD sees HD's subtree only from its own level down.
      const team = await s.memberToken('HD-SH', 'orgUser');
      expect((await s.call(team, 'GET', `/api/vehicle/vehicleBrand/query/${id}`)).status).toBe(404);
      // The platform administrator above both sees both.
      const all = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: '华东专属' } });
      expect(all.body.total).toBe(2);
    });

    it('refuses to place rows in, or link them to, another organisation', async () => {
      const hd = await s.memberToken('HD', 'administrator');
      const hnOrg = await s.orgId('HN');
      const r = await s.call(hd, 'POST', '/api/vehicle/vehicleBrand', { name: '越界', orgId: hnOrg });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ field: 'orgId', message: '所属组织不存在或无权使用' });
      const hnBrands = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { orgId: hnOrg }, pageSize: 1 });
      const v = await s.call(hd, 'POST', '/api/vehicle/vehicle', { licence: '沪Z00001', brandId: hnBrands.body.data[0].id });
      expect(v.status).toBe(400);
      expect(v.body.errors[0]).toMatchObject({ field: 'brandId', message: '品牌不存在或无权使用' });
    });
  });

  describe('vehicles', () => {
    it('searches by keyword across licence, VIN, customer and terminal, with relation labels', async () => {
      const r = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { keyword: '808000000001' }, pageSize: 50 });
      expect(r.status).toBe(200);
      expect(r.body.data.map((v: { terminalNo: string }) => v.terminalNo)).toContain('808000000001');
      expect(r.body.data[0]).toHaveProperty('brandName');
      const sub = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { orgId: await s.orgId('HD') }, pageSize: 100 });
      expect(sub.body.total).toBe(16); // both HD teams
      const expiring = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', {
        criteria: { serviceEnd: [null, '2026-12-31'] },
        pageSize: 100,
      });
      expect(expiring.body.total).toBe(3);
    });

    it('refuses a second vehicle on a terminal already bound (406)', async () => {
      const t = await s.call(admin, 'POST', '/api/vehicle/terminal/query', { criteria: { terminalNo: '808000000002' } });
      const r = await s.call(admin, 'POST', '/api/vehicle/vehicle', {
        licence: '沪A99999',
        terminalId: t.body.data[0].id,
        vin: 'LFW00000000000001',
      });
      expect(r.status).toBe(406);
      expect(r.body.message).toBe('终端已存在');
    });
  });
});
