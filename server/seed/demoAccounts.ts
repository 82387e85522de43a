import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/tables';

/** Demo roles: each includes the listed resources with everything below them. */
const ROLES = [
  {
    org: 'HD',
    name: '车队经理',
    description: '管理本公司车队、账号与角色',
    include: ['dashboard', 'alarm', 'fleet', 'statistics', 'team', 'system-account', 'system-role', 'system-org', 'system-log', 'tools'],
  },
  {
    org: 'HD',
    name: '调度员',
    description: '查看车辆、监控与告警',
    include: ['dashboard', 'alarm', 'fleet-vehicleList', 'fleet-monitor', 'fleet-driver'],
  },
  {
    org: 'HN',
    name: '车队经理',
    description: '管理本公司车队、账号与角色',
    include: ['dashboard', 'alarm', 'fleet', 'statistics', 'team', 'system-account', 'system-role', 'system-org', 'system-log'],
  },
];

/** Demo accounts; they share the admin's password so one secret opens the demo. */
const MEMBERS = [
  { loginName: 'hd-manager', name: '王建国', org: 'HD', memberType: 'orgUser', mobile: '13916880101', role: 'HD:车队经理' },
  { loginName: 'sh-dispatcher', name: '李明', org: 'HD-SH', memberType: 'orgUser', mobile: '13916880102', role: 'HD:调度员' },
  { loginName: 'hn-manager', name: '张伟', org: 'HN', memberType: 'orgUser', mobile: '13823780103', role: 'HN:车队经理' },
];

export async function seedDemoAccounts(trx: Transaction<DB>, orgs: Map<string, { id: number }>, passwordHash: string): Promise<void> {
  const resources = await trx.selectFrom('resource').select(['id', 'code', 'parent_id']).where('application', '=', 'obd-web').execute();
  const below = (codes: string[]): number[] => {
    const picked = new Set(resources.filter((r) => codes.includes(r.code)).map((r) => r.id));
    for (let grew = true; grew;) {
      grew = false;
      for (const r of resources) {
        if (r.parent_id === null || !picked.has(r.parent_id) || picked.has(r.id)) continue;
        picked.add(r.id);
        grew = true;
      }
    }
    return [...picked];
  };
  const roleIds = new Map<string, number>();
  for (const r of ROLES) {
    const { id } = await trx
      .insertInto('role')
      .values({ org_id: orgs.get(r.org)!.id, application: 'obd-web', name: r.name, description: r.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    roleIds.set(`${r.org}:${r.name}`, id);
    await trx
      .insertInto('role_resource')
      .values(below(r.include).map((resource_id) => ({ role_id: id, resource_id })))
      .execute();
  }
  for (const m of MEMBERS) {
    const { id } = await trx
      .insertInto('member')
      .values({
        uid: crypto.randomUUID(),
        login_name: m.loginName,
        name: m.name,
        mobile: m.mobile,
        member_type: m.memberType,
        org_id: orgs.get(m.org)!.id,
        password_hash: passwordHash,
        first_sign: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('member_application').values({ member_id: id, application: 'obd-web' }).execute();
    await trx
      .insertInto('member_role')
      .values({ member_id: id, role_id: roleIds.get(m.role)! })
      .execute();
  }
}
