import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';
import { XLSX, uploadSheet, inLanguage } from '../../helpers/multipart';
import { downloadFrom, readXlsx, xlsxOf } from '../../helpers/xlsx';

interface RowReport {
  row: number;
  errors: Array<{ field: string; key: string; message: string }>;
}

describe.each(BACKENDS)('organisation and account spreadsheets on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const upload = (token: string, url: string, file: Buffer, lang?: string) => uploadSheet(s.app, token, url, file, inLanguage(lang));
  const errorsOf = (rows: RowReport[], row: number) => rows.find((r) => r.row === row)?.errors ?? [];
  const count = async (table: 'organisation' | 'member', column: 'code' | 'login_name', values: string[]) =>
    (await s.database.db.selectFrom(table).select('id').where(column, 'in', values).execute()).length;

  it('exports the caller subtree of organisations with localised headers, and refuses a member without the code', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['org-export']);
    const res = await downloadFrom(s, hd, 'POST', '/api/vehicle/org/export', { criteria: {} });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    const rows = await readXlsx(res.data);
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['组织名称', '组织代码', '上级组织', '组织类型', '状态']));
    const codes = rows.slice(1).map((r) => r[header.indexOf('组织代码')]);
    expect(codes).toEqual(expect.arrayContaining(['HD', 'HD-SH', 'HD-HZ']));
    // Nothing outside the caller's subtree, not even its parent.
    expect(codes).not.toContain('HN');
    expect(codes.length).toBe(3);
    const sh = rows.find((r) => r[header.indexOf('组织代码')] === 'HD-SH')!;
    expect(sh[header.indexOf('上级组织')]).toBe('华东物流有限公司');
    expect(sh[header.indexOf('组织类型')]).toBe('服务团队');
    expect((await downloadFrom(s, await s.memberToken('HD', 'orgUser', []), 'POST', '/api/vehicle/org/export', {})).status).toBe(403);
    const en = await readXlsx((await downloadFrom(s, hd, 'POST', '/api/vehicle/org/export', {}, 'en-US')).data);
    expect(en[0]).toEqual(expect.arrayContaining(['Organisation name', 'Organisation code', 'Parent organisation']));
  });

  it('imports organisations only under parents in the caller subtree, all or nothing, with per-row localised errors', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['org-import']);
    const template = await readXlsx((await downloadFrom(s, hd, 'GET', '/api/vehicle/org/template')).data);
    expect(template[0]).toEqual(['组织名称', '组织代码', '上级组织', '组织类型', '状态', '联系人', '联系电话', '地址']);
    const header = template[0];
    const bad = await xlsxOf([
      header,
      ['苏州车队', 'HD-SZ', '华东物流有限公司', '服务团队', '启用', '周', '13900000001', null],
      ['深圳二队', 'HN-SZ2', '华南运输集团', '服务团队', '启用', null, null, null],
      ['', 'HD-X', '上海车队', null, null, null, null, null],
      ['重复', 'HD', '上海车队', null, null, null, 'not-a-phone', null],
    ]);
    const checked = await upload(hd, '/api/vehicle/org/importValidate', bad);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ success: false, total: 4, invalid: 3 });
    expect(errorsOf(checked.body.rows, 2)).toEqual([]);
    // Another client's organisation is as unknown as a typo.
    expect(errorsOf(checked.body.rows, 3)).toContainEqual({
      field: 'parentId',
      key: 'sheet.refNotFound',
      message: '上级组织“华南运输集团”不存在或无权使用',
    });
    expect(errorsOf(checked.body.rows, 4).map((e) => e.field)).toEqual(['name']);
    expect(
      errorsOf(checked.body.rows, 5)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['phone']);
    const refused = await upload(hd, '/api/vehicle/org/import', bad, 'en-US');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('3 rows have errors; nothing was imported');
    expect(errorsOf(refused.body.rows, 3).map((e) => e.message)).toContain(
      'Parent organisation "华南运输集团" does not exist or is not available to you',
    );
    expect(await count('organisation', 'code', ['HD-SZ', 'HN-SZ2', 'HD-X'])).toBe(0);

    const good = await xlsxOf([
      header,
      ['苏州车队', 'HD-SZ', '华东物流有限公司', '服务团队', '启用', '周', '13900000001', null],
      ['无锡车队', 'HD-WX', '上海车队', null, null, null, null, null],
    ]);
    const done = await upload(hd, '/api/vehicle/org/import', good);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ success: true, total: 2, message: '成功导入2条数据' });
    // Imported organisations join the tree: visible, with their parent, inside the subtree rule.
    const list = await s.call(hd, 'POST', '/api/vehicle/org/query', { criteria: { keyword: '车队' }, pageIndex: 1, pageSize: 50 });
    const wx = list.body.data.find((o: { code: string }) => o.code === 'HD-WX');
    expect(wx).toMatchObject({ name: '无锡车队', parentName: '上海车队', type: 'client', status: 'enabled' });
    const path = await s.database.db.selectFrom('organisation').select('path').where('code', '=', 'HD-WX').executeTakeFirstOrThrow();
    const parent = await s.database.db.selectFrom('organisation').select('path').where('code', '=', 'HD-SH').executeTakeFirstOrThrow();
    expect(path.path).toBe(`${parent.path}${wx.id}/`);
    // A second import of the same codes is refused as duplicates.
    const again = await upload(hd, '/api/vehicle/org/importValidate', good);
    expect(errorsOf(again.body.rows, 2)).toEqual([{ field: 'code', key: 'error.duplicate', message: '组织代码已存在' }]);
    expect((await upload(await s.memberToken('HD', 'orgUser', []), '/api/vehicle/org/import', good)).status).toBe(403);
  });

  it('exports the accounts of the caller subtree', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['member-export']);
    const rows = await readXlsx((await downloadFrom(s, hd, 'POST', '/api/passport/member/export', { criteria: {} })).data);
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['登录名', '姓名', '账号类型', '所属组织', '状态']));
    expect(header).not.toContain('密码');
    const logins = rows.slice(1).map((r) => r[header.indexOf('登录名')]);
    expect(logins).toContain('hd-manager');
    expect(logins).not.toContain('hn-manager');
    expect(logins).not.toContain('admin');
    // An organisation criterion means its subtree, as in the list; another client's means nothing.
    const sub = await readXlsx(
      (await downloadFrom(s, hd, 'POST', '/api/passport/member/export', { criteria: { orgId: await s.orgId('HD') } })).data,
    );
    expect(sub.length).toBe(rows.length);
    const team = await readXlsx(
      (await downloadFrom(s, hd, 'POST', '/api/passport/member/export', { criteria: { orgId: await s.orgId('HD-SH') } })).data,
    );
    expect(team.slice(1).map((r) => r[header.indexOf('所属组织')])).toEqual(expect.arrayContaining(['上海车队']));
    expect(new Set(team.slice(1).map((r) => r[header.indexOf('所属组织')]))).toEqual(new Set(['上海车队']));
    const far = await readXlsx(
      (await downloadFrom(s, hd, 'POST', '/api/passport/member/export', { criteria: { orgId: await s.orgId('HN') } })).data,
    );
    expect(far.length).toBe(1);
  });

  it('imports accounts with generated first-sign passwords, never granting roles the importer lacks', async () => {
    const db = s.database.db;
    const hd = await s.addMember('HD', 'orgUser', ['member-import', 'vehicle-export']);
    const orgHd = await s.orgId('HD');
    const role = async (name: string, codes: string[]) => {
      const r = await db
        .insertInto('role')
        .values({ org_id: orgHd, application: 'obd-web', name })
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await db.selectFrom('resource').select('id').where('application', '=', 'obd-web').where('code', 'in', codes).execute();
      await db
        .insertInto('role_resource')
        .values(res.map((x) => ({ role_id: r.id, resource_id: x.id })))
        .execute();
      return r.id;
    };
    const exporter = await role('导出员', ['vehicle-export']);
    await role('编辑员', ['vehicle-edit']);
    const template = await readXlsx((await downloadFrom(s, hd.token, 'GET', '/api/passport/member/template')).data);
    expect(template[0]).toEqual(['登录名', '姓名', '手机号', '账号类型', '到期日期', '状态', '所属组织', '角色']);
    expect(template[0]).not.toContain('密码');
    const header = template[0];
    const row = (
      login: string,
      type = '组织用户',
      org: string | null = '上海车队',
      roles: string | null = null,
      name: string | null = login,
    ) => [login, name, null, type, null, '启用', org, roles];
    const bad = await xlsxOf([
      header,
      row('imp-ok', '组织用户', '上海车队', '导出员'),
      row('imp-wide', '组织用户', '上海车队', '编辑员'),
      row('imp-admin', '管理员'),
      row('imp-far', '组织用户', '深圳车队'),
      row('HD-MANAGER'),
      row('imp-noname', '组织用户', null, null, null),
      row('imp-norole', '组织用户', null, '没有这个角色'),
    ]);
    const checked = await upload(hd.token, '/api/passport/member/importValidate', bad);
    expect(checked.body).toMatchObject({ success: false, total: 7, invalid: 6 });
    expect(errorsOf(checked.body.rows, 2)).toEqual([]);
    expect(errorsOf(checked.body.rows, 3)).toEqual([
      { field: 'roleIds', key: 'passport.codesNotHeld', message: '不能授予自己没有的权限：vehicle-edit' },
    ]);
    expect(errorsOf(checked.body.rows, 4)).toEqual([
      { field: 'memberType', key: 'passport.memberTypeNotAllowed', message: '无权创建或设置该类型的账号' },
    ]);
    expect(errorsOf(checked.body.rows, 5)).toEqual([
      { field: 'orgId', key: 'sheet.refNotFound', message: '所属组织“深圳车队”不存在或无权使用' },
    ]);
    // Login names are unique whatever their case.
    expect(errorsOf(checked.body.rows, 6)).toEqual([{ field: 'loginName', key: 'passport.loginNameExists', message: '登录名已存在' }]);
    expect(errorsOf(checked.body.rows, 7).map((e) => e.field)).toEqual(['name']);
    expect(errorsOf(checked.body.rows, 8)).toEqual([{ field: 'roleIds', key: 'validation.refNotFound', message: '角色不存在或无权使用' }]);
    const ja = await upload(hd.token, '/api/passport/member/import', bad, 'ja-JP');
    expect(ja.status).toBe(400);
    expect(await count('member', 'login_name', ['imp-ok', 'imp-wide'])).toBe(0);

    const good = await xlsxOf([header, row('imp-ok', '组织用户', '上海车队', '导出员'), row('imp-two', '服务用户', null)]);
    const done = await upload(hd.token, '/api/passport/member/import', good);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ success: true, total: 2 });
    const ok = await db.selectFrom('member').selectAll().where('login_name', '=', 'imp-ok').executeTakeFirstOrThrow();
    expect(ok.first_sign).toBe(true);
    expect(ok.org_id).toBe(await s.orgId('HD-SH'));
    expect(ok.password_hash).toBeTruthy();
    const two = await db.selectFrom('member').selectAll().where('login_name', '=', 'imp-two').executeTakeFirstOrThrow();
    expect(two.org_id).toBe(orgHd);
    expect((await db.selectFrom('member_role').select('role_id').where('member_id', '=', ok.id).execute()).map((r) => r.role_id)).toEqual([
      exporter,
    ]);
    expect(
      (await db.selectFrom('member_application').select('application').where('member_id', '=', ok.id).execute()).map((r) => r.application),
    ).toEqual(['obd-web']);
    // Nobody can sign in with a password from the sheet: there is none.
    expect((await s.call(null, 'POST', '/api/login', { loginName: 'imp-ok', password: '' })).body.success).not.toBe(true);
    expect((await upload(admin, '/api/passport/member/importValidate', good)).body.rows.map((r: RowReport) => r.errors[0].key)).toEqual([
      'error.duplicate',
      'error.duplicate',
    ]);
  });
});
