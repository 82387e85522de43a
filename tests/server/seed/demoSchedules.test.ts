import { sql } from 'kysely';
import { DEMO_SCHEDULE_ROUTE, seedDemoSchedules } from '../../../server/seed/demoSchedules';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** The demo's schedules (issue 14): each driver on their vehicle on the days it drove, once. */
describe.each(BACKENDS)('demo schedules on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it('schedules each driver on the days their vehicle drove, and adds nothing the second time', async () => {
    const db = s.database.db;
    const [driven, idle, driverless] = (
      await sql<{ id: number; org_id: number }>`SELECT id, org_id FROM vehicle ORDER BY id LIMIT 3`.execute(db)
    ).rows;
    const drivers = (await sql<{ id: number }>`SELECT id FROM driver ORDER BY id LIMIT 2`.execute(db)).rows;
    expect(drivers).toHaveLength(2);
    await sql`UPDATE vehicle SET driver_id = ${drivers[0].id} WHERE id = ${driven.id}`.execute(db);
    await sql`UPDATE vehicle SET driver_id = ${drivers[1].id} WHERE id = ${idle.id}`.execute(db);
    await sql`UPDATE vehicle SET driver_id = NULL WHERE id = ${driverless.id}`.execute(db);
    const ledger = (vehicle: { id: number; org_id: number }, day: string, trips: number) =>
      sql`INSERT INTO ledger_day (vehicle_id, day, org_id, trip_count) VALUES (${vehicle.id}, ${day}, ${vehicle.org_id}, ${trips})`.execute(
        db,
      );
    await ledger(driven, '2026-11-20', 3);
    await ledger(driven, '2026-11-21', 1);
    await ledger(idle, '2026-11-20', 0); // on the ledger, never moved
    await ledger(driverless, '2026-11-20', 2);

    expect(await seedDemoSchedules(db)).toBe(2);
    const rows = (
      await s.call(admin, 'POST', '/api/vehicle/schedule/query', {
        criteria: { workDate: ['2026-11-20', '2026-11-21'] },
        order: { property: 'workDate', direction: 'ASC' },
        pageSize: 50,
      })
    ).body.data;
    expect(rows).toEqual([
      expect.objectContaining({
        driverId: drivers[0].id,
        vehicleId: driven.id,
        workDate: '2026-11-20',
        shift: 'allDay',
        route: DEMO_SCHEDULE_ROUTE,
        orgId: driven.org_id,
      }),
      expect.objectContaining({ driverId: drivers[0].id, vehicleId: driven.id, workDate: '2026-11-21', shift: 'allDay' }),
    ]);
    // A restart that plays it again adds nothing.
    expect(await seedDemoSchedules(db)).toBe(0);
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM schedule WHERE work_date BETWEEN '2026-11-20' AND '2026-11-21'`.execute(db))
        .rows[0].n,
    ).toBe(2);
  });
});
