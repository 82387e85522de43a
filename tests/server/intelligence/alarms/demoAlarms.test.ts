/**
 * The demo's alarm settings against the demo history: the policies, town fences and console rules
 * a fresh `npm start` seeds catch what the history's day script drives (long hauls, trouble
 * codes, town driving), through the real gateway, pipeline and routes.
 */

import { sql } from 'kysely';
import { seedDemoAlarms } from '../../../../server/seed/demoAlarms';
import { demoFleet } from '../../../../server/simulator/demo';
import { playHistory } from '../../../../server/simulator/history';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { startAlarmRig, type AlarmRig } from './rig';

describe.each(BACKENDS)('the demo alarm settings over the demo history on %s', (backend) => {
  let rig: AlarmRig;
  let admin: string;

  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    const db = rig.s.database.db;
    const orgs = new Map(
      (await sql<{ code: string; id: number }>`SELECT code, id FROM organisation`.execute(db)).rows.map((o) => [o.code, { id: o.id }]),
    );
    await db.transaction().execute((trx) => seedDemoAlarms(trx, orgs));
    await playHistory({
      host: '127.0.0.1',
      port: rig.port,
      terminals: await demoFleet(db, 6),
      days: 10,
      until: Date.parse('2026-11-20T00:00:00Z'),
    });
    await rig.settled();
    admin = await rig.s.login('admin', ADMIN_PASSWORD);
  }, 600_000);
  afterAll(() => rig?.close());

  const alarms = async (criteria: Record<string, unknown>) =>
    (await rig.s.call(admin, 'POST', '/api/vehicle/alarm/query', { criteria, pageIndex: 1, pageSize: 100 })).body.data as Array<{
      type: string;
      fenceId: number | null;
      detail: Record<string, unknown> | null;
    }>;

  it('raises speeding, fatigue, fence and trouble-code alarms from the history', async () => {
    for (const type of ['OverSpeed', 'Fatigue', 'Fault', 'Idle'])
      expect({ type, found: (await alarms({ type })).length > 0 }).toEqual({ type, found: true });
    const fence = await alarms({ category: 'fence' });
    expect(fence.length).toBeGreaterThan(0);
    // Speeding inside a town fence carries the fence's limit.
    expect(
      (await alarms({ type: 'OverSpeed' })).concat(await alarms({ type: 'OverSpeed', status: 'closed' })).some((a) => a.fenceId !== null),
    ).toBe(true);
  });

  it('puts them in the console list of a member whose scope holds the vehicles', async () => {
    const unread = await rig.s.call(admin, 'POST', '/api/vehicle/notify/unread/query', { pageIndex: 1, pageSize: 20 });
    expect(unread.status).toBe(200);
    expect(unread.body.data.length).toBeGreaterThan(0);
  });
});
