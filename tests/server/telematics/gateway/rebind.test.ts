/**
 * Issue 39, finding 4: a terminal's live session follows its binding at once. After its vehicle
 * moves to another organisation, or the terminal is unbound, bound to another vehicle, moved
 * with its organisation or taken out of use, the next report of the same connection goes where
 * the binding now says (vehicle and live-push scope), without the terminal reconnecting.
 */

import { sql } from 'kysely';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import type { SimTerminal } from '../../../../server/simulator/terminal';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { startGateway, until, type GatewayHarness } from './harness';

const place = (time: number): LocationInput => ({
  latitude: 31.2,
  longitude: 121.4,
  speed: 30,
  direction: 0,
  status: { accOn: true, fixed: true },
  time,
});

describe.each(BACKENDS)('a live session follows its binding on %s', (backend) => {
  let h: GatewayHarness;
  let admin: string;
  let device: SimTerminal;
  let terminalId: number;
  const pushed = new Map<string, number[]>();
  let t = Date.parse('2026-11-28T02:00:00Z');
  beforeAll(async () => {
    h = await startGateway(backend, { routes: { commandTimeoutMs: 400 } });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    // Live-push listeners of each tenant: which vehicles' positions reach them.
    for (const code of ['HD', 'HN']) {
      const orgPath = (await h.s.database.db.selectFrom('organisation').select('path').where('code', '=', code).executeTakeFirstOrThrow())
        .path;
      const got: number[] = [];
      pushed.set(code, got);
      h.hub!.add({
        orgPath,
        backlog: () => 0,
        send: (json) => got.push(...(JSON.parse(json) as { items: Array<{ vehicleId: number }> }).items.map((i) => i.vehicleId)),
      });
    }
    const created = await h.s.call(admin, 'PUT', '/api/vehicle/terminal', {
      terminalNo: 'RB0000001',
      sim: '14433300001',
      orgId: await h.s.orgId('HD'),
    });
    terminalId = created.body.id;
    device = h.terminal('14433300001');
    await device.connect();
  });
  afterAll(() => h.close());

  const vehicle = async (licence: string, org: string, bound: boolean): Promise<number> => {
    const v = await h.s.call(admin, 'POST', '/api/vehicle/vehicle', {
      licence,
      orgId: await h.s.orgId(org),
      ...(bound ? { terminalId } : {}),
    });
    expect(v.status).toBe(201);
    return v.body.id;
  };
  /** Reports once on the same connection; answers the vehicle the position was stored for. */
  const report = async (): Promise<number | null> => {
    t += 60_000;
    device.report(place(t));
    await device.drain();
    const r = await sql<{
      vehicle_id: number | null;
    }>`SELECT vehicle_id FROM position WHERE terminal_id = ${terminalId} AND device_time = ${new Date(t)}`.execute(h.s.database.db);
    return r.rows[0].vehicle_id;
  };
  const cleared = () => {
    for (const got of pushed.values()) got.length = 0;
  };

  it('reports for the vehicle it is bound to, in the scope the vehicle is in now', async () => {
    const v1 = await vehicle('沪R00001', 'HD', true);
    expect(await report()).toBe(v1);
    await until(() => pushed.get('HD')!.includes(v1));
    cleared();
    // The vehicle moves to another organisation: its live positions go to that tenant only.
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/${v1}`, { orgId: await h.s.orgId('HN') })).status).toBe(200);
    expect(await report()).toBe(v1);
    await until(() => pushed.get('HN')!.includes(v1));
    expect(pushed.get('HD')).toEqual([]);

    // Unbound: the positions belong to no vehicle and reach nobody live.
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/unbind/${v1}`)).status).toBe(200);
    cleared();
    expect(await report()).toBeNull();
    // Bound to another vehicle: they are that one's.
    const v2 = await vehicle('沪R00002', 'HD', false);
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/bind/${v2}/${terminalId}`)).status).toBe(200);
    expect(await report()).toBe(v2);
    await until(() => pushed.get('HD')!.includes(v2));
    expect(pushed.get('HN')).toEqual([]);
    // Replaced by another terminal in one step: the session reports for no vehicle again.
    const other = await h.s.call(admin, 'PUT', '/api/vehicle/terminal', {
      terminalNo: 'RB0000002',
      sim: '14433300002',
      orgId: await h.s.orgId('HD'),
    });
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/reset/${v2}/${other.body.id}`)).status).toBe(200);
    expect(await report()).toBeNull();
    // Bound again through the vehicle form.
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/${v1}`, { terminalId })).status).toBe(200);
    expect(await report()).toBe(v1);
  });

  it("follows its vehicle's organisation when that organisation moves, and ends when the terminal is taken out of use", async () => {
    const team = await h.s.call(admin, 'POST', '/api/vehicle/org', {
      code: 'RB-T',
      name: '迁移车队',
      type: 'serviceTeam',
      parentId: await h.s.orgId('HD'),
    });
    expect(team.status).toBe(201);
    const v3 = await vehicle('沪R00003', 'HD', false);
    await h.s.call(
      admin,
      'PUT',
      `/api/vehicle/vehicle/unbind/${(await sql<{ id: number }>`SELECT id FROM vehicle WHERE terminal_id = ${terminalId}`.execute(h.s.database.db)).rows[0].id}`,
    );
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/vehicle/${v3}`, { orgId: team.body.id, terminalId })).status).toBe(200);
    cleared();
    expect(await report()).toBe(v3);
    await until(() => pushed.get('HD')!.includes(v3));
    // The team moves under the other tenant, vehicle and all.
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/org/${team.body.id}`, { parentId: await h.s.orgId('HN') })).status).toBe(200);
    cleared();
    expect(await report()).toBe(v3);
    await until(() => pushed.get('HN')!.includes(v3));
    expect(pushed.get('HD')).toEqual([]);

    // Out of use: the live session ends at once.
    expect((await h.s.call(admin, 'PUT', `/api/vehicle/terminal/${terminalId}`, { inUse: false })).status).toBe(200);
    await until(() => !device.isOnline);
    expect(h.gateway.isOnline(terminalId)).toBe(false);
  });
});
