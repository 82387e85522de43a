import { reportMisassignedRoles } from '../../../server/passport/roleScope';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** A role is held only inside its organisation's subtree, and changed only by those holding all it grants (issue 18 #6b, L3). */
describe.each(BACKENDS)('role scope on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const role = async (orgCode: string, name: string) =>
    (
      await s.database.db
        .selectFrom('role as r')
        .innerJoin('organisation as o', 'o.id', 'r.org_id')
        .select('r.id')
        .where('o.code', '=', orgCode)
        .where('r.name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const holds = async (memberId: number) =>
    (await s.database.db.selectFrom('member_role').select('role_id').where('member_id', '=', memberId).execute())
      .map((r) => r.role_id)
      .sort();

  it('refuses a role of an unrelated organisation on register, edit and App-account edit, and accepts one from above', async () => {
    const hnManager = await role('HN', '车队经理');
    const hdManager = await role('HD', '车队经理');
    const base = { name: '南京', memberType: 'orgUser', expireDate: '2099-01-01', password: 'Start2026x', orgId: await s.orgId('HD-SH') };
    const reg = await s.call(admin, 'POST', '/api/passport/passport/register', { ...base, loginName: 'nj-1', roleIds: [hnManager] });
    expect(reg.status).toBe(406);
    expect(reg.body.code).toBe('security.roleOutsideOrg');
    expect(reg.body.message).toBe('角色不属于该账号所在组织或其上级组织：车队经理（华南运输集团）');
    expect(reg.body.errors[0].field).toBe('roleIds');
    expect(await s.database.db.selectFrom('member').select('id').where('login_name', '=', 'nj-1').executeTakeFirst()).toBeUndefined();
    // A role of an organisation above the account's is fine.
    const ok = await s.call(admin, 'POST', '/api/passport/passport/register', { ...base, loginName: 'nj-2', roleIds: [hdManager] });
    expect(ok.status).toBe(201);
    const edit = await s.call(admin, 'PUT', `/api/passport/member/${ok.body.id}`, { roleIds: [hdManager, hnManager] }, 'en-US');
    expect(edit.status).toBe(406);
    expect(edit.body.message).toContain("neither to the account's organisation nor to one above it");
    // Moving the account away from its roles' subtree is refused too.
    const move = await s.call(admin, 'PUT', `/api/passport/member/${ok.body.id}`, { orgId: await s.orgId('HN-SZ') });
    expect(move.body.code).toBe('security.roleOutsideOrg');
    expect(await holds(ok.body.id)).toEqual([hdManager]);
    // The App account page applies the same rule to App roles.
    const hnApp = (
      await s.call(admin, 'POST', '/api/passport/role', { name: '华南司机', orgId: await s.orgId('HN') }, undefined, {
        'x-application-code': 'vehicle-app',
      })
    ).body.id;
    await s.database.db.insertInto('member_application').values({ member_id: ok.body.id, application: 'vehicle-app' }).execute();
    expect((await s.call(admin, 'PUT', `/api/passport/app-member/${ok.body.id}`, { roleIds: [hnApp] })).body.code).toBe(
      'security.roleOutsideOrg',
    );
    // A role cannot be moved to an organisation its holders are outside of.
    expect((await s.call(admin, 'PUT', `/api/passport/role/${hdManager}`, { orgId: await s.orgId('HN') })).body.code).toBe(
      'security.roleOutsideOrg',
    );
  });

  it('lists existing misassignments for an administrator (member-roleAudit) and warns once at start-up with counts', async () => {
    const db = s.database.db;
    const hnManager = await role('HN', '车队经理');
    const hdMember = await s.addMember('HD-SH', 'orgUser');
    // Made before the rule existed: straight into the table.
    await db.insertInto('member_role').values({ member_id: hdMember.id, role_id: hnManager }).execute();
    const warnings: Array<{ obj: unknown; msg: string }> = [];
    const n = await reportMisassignedRoles(db, { warn: ((obj: unknown, msg: string) => warnings.push({ obj, msg })) as never });
    expect(n).toBe(1);
    expect(warnings).toEqual([{ obj: { assignments: 1, members: 1, roles: 1 }, msg: expect.stringContaining('role-misassignments') }]);
    const list = await s.call(admin, 'GET', '/api/passport/member/role-misassignments');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      total: 1,
      data: [
        {
          memberId: hdMember.id,
          loginName: hdMember.loginName,
          memberName: hdMember.loginName,
          orgName: '上海车队',
          roleId: hnManager,
          roleName: '车队经理',
          roleOrgName: '华南运输集团',
        },
      ],
    });
    // Behind its code, and inside the caller's subtree.
    expect(
      (await s.call(await s.memberToken('HD', 'orgUser', ['member-edit']), 'GET', '/api/passport/member/role-misassignments')).status,
    ).toBe(403);
    expect(
      (await s.call(await s.memberToken('HN', 'orgUser', ['member-roleAudit']), 'GET', '/api/passport/member/role-misassignments')).body
        .total,
    ).toBe(0);
    expect(
      (await s.call(await s.memberToken('HD', 'orgUser', ['member-roleAudit']), 'GET', '/api/passport/member/role-misassignments')).body
        .total,
    ).toBe(1);
    await db.deleteFrom('member_role').where('member_id', '=', hdMember.id).where('role_id', '=', hnManager).execute();
    expect(await reportMisassignedRoles(db, { warn: () => warnings.push({ obj: null, msg: 'again' }) })).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('lets no manager rename, change or delete a role granting codes the manager lacks (406)', async () => {
    const lead = await s.addMember('HD', 'orgUser', ['role-add', 'role-edit', 'role-remove', 'role-authorize', 'vehicle-add']);
    const resources = await s.database.db
      .selectFrom('resource')
      .select(['id', 'code'])
      .where('application', '=', 'obd-web')
      .where('code', 'in', ['vehicle-add', 'org-remove'])
      .execute();
    const id = (code: string) => resources.find((r) => r.code === code)!.id;
    const big = await s.call(admin, 'POST', '/api/passport/role', {
      name: '大权限',
      orgId: await s.orgId('HD'),
      resourceIds: [id('org-remove'), id('vehicle-add')],
    });
    expect(big.status).toBe(201);
    const rename = await s.call(lead.token, 'PUT', `/api/passport/role/${big.body.id}`, { name: '改名' });
    expect(rename.status).toBe(406);
    expect(rename.body).toMatchObject({ code: 'security.roleCodesNotHeld', message: '该角色包含你没有的权限，不能修改或删除：org-remove' });
    expect(
      (await s.call(lead.token, 'PUT', `/api/passport/role/${big.body.id}/authorize`, { resourceIds: [id('vehicle-add')] })).status,
    ).toBe(406);
    expect((await s.call(lead.token, 'DELETE', `/api/passport/role/${big.body.id}`)).status).toBe(406);
    const still = await s.call(admin, 'GET', `/api/passport/role/${big.body.id}/authorize`);
    expect(still.body.resourceIds.sort()).toEqual([id('org-remove'), id('vehicle-add')].sort());
    // A role within the lead's own codes stays theirs to change and delete.
    const small = await s.call(lead.token, 'POST', '/api/passport/role', { name: '小权限', resourceIds: [id('vehicle-add')] });
    expect((await s.call(lead.token, 'PUT', `/api/passport/role/${small.body.id}`, { name: '小权限2' })).status).toBe(200);
    expect((await s.call(lead.token, 'DELETE', `/api/passport/role/${small.body.id}`)).status).toBe(204);
  });
});
