import fs from 'node:fs';
import path from 'node:path';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';

const MIGRATION = path.resolve(__dirname, '../../../../server/platform/db/migrations/2026112400050000_one_term_per_thing.sql');

/** A database seeded before the wording was settled gets 司机 and 燃油类型; an administrator's own names stay. */
describe.each(BACKENDS)('the one-term-per-thing migration on %s', (backend) => {
  let s: TestServer;
  useTestServer(backend, (server) => {
    s = server;
  });

  it('renames the seeded driver and fuel-type menus and actions, leaving renamed ones alone', async () => {
    const { db } = s.database;
    const name = async (code: string) =>
      (
        await db
          .selectFrom('resource')
          .select('name')
          .where('code', '=', code)
          .where('application', '=', 'obd-web')
          .executeTakeFirstOrThrow()
      ).name;
    // As an older seed wrote them, and one an administrator renamed.
    const old: Record<string, string> = {
      'fleet-driver': '驾驶员',
      'driver-add': '新增驾驶员',
      'driver-import': '导入驾驶员',
      'fleet-fuelType': '燃料类型',
      'fuelType-remove': '删除燃料类型',
      'driver-edit': '改司机资料',
    };
    for (const [code, n] of Object.entries(old)) await db.updateTable('resource').set({ name: n }).where('code', '=', code).execute();

    await s.database.runScript(fs.readFileSync(MIGRATION, 'utf8'), async () => undefined);

    expect(await name('fleet-driver')).toBe('司机管理');
    expect(await name('driver-add')).toBe('新增司机');
    expect(await name('driver-import')).toBe('导入司机');
    expect(await name('fleet-fuelType')).toBe('燃油类型');
    expect(await name('fuelType-remove')).toBe('删除燃油类型');
    expect(await name('driver-edit')).toBe('改司机资料');
  });
});
