import { sql } from 'kysely';
import { UNKNOWN_CARD_TERMINAL, UNKNOWN_DEMO_CARD } from '../../../server/simulator/cards';
import { demoFleet } from '../../../server/simulator/demo';
import { playHistory } from '../../../server/simulator/history';
import { demoFixtures } from '../../../server/seed/fixtures';
import { ADMIN_PASSWORD, BACKENDS } from '../../helpers/testServer';
import { startGateway, type GatewayHarness } from '../telematics/gateway/harness';

/**
 * The demo history's drivers insert their IC card at the first ignition on of each day and take it
 * out at the last off; one vehicle's driver carries a card the demo seed does not know, which the
 * platform lists for an administrator to assign.
 */
describe.each(BACKENDS)('the demo fleet’s IC cards on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend);
  });
  afterAll(() => h.close());

  it('makes a driver session per driven day for the vehicle’s driver, and one vehicle an unknown card', async () => {
    const db = h.s.database.db;
    const phones = [demoFixtures.terminals[0].terminalNo, demoFixtures.terminals[UNKNOWN_CARD_TERMINAL].terminalNo];
    const terminals = (await demoFleet(db, demoFixtures.terminals.length)).filter((t) => phones.includes(t.phone));
    expect(terminals.map((t) => t.card?.cardNo)).toEqual([expect.stringMatching(/^QC\d+$/), UNKNOWN_DEMO_CARD.cardNo]);
    const until = Date.now();
    await playHistory({ host: '127.0.0.1', port: h.port, terminals, days: 3, until });

    const admin = await h.s.login('admin', ADMIN_PASSWORD);
    const vehicle = async (phone: string) =>
      (
        await sql<{ id: number; driverId: number; cardNo: string }>`SELECT v.id, d.id AS "driverId", d.card_no AS "cardNo"
          FROM vehicle v JOIN terminal t ON t.id = v.terminal_id JOIN driver d ON d.id = v.driver_id WHERE t.terminal_no = ${phone}`.execute(
          db,
        )
      ).rows[0];
    const known = await vehicle(phones[0]);
    const sessions = await h.s.call(admin, 'POST', '/api/vehicle/driverSession/query', {
      criteria: { begin: new Date(until - 5 * 86_400_000).toISOString(), end: new Date(until).toISOString(), vehicleId: known.id },
    });
    expect(sessions.status).toBe(200);
    expect(sessions.body.length).toBeGreaterThan(0);
    for (const s of sessions.body) expect(s).toMatchObject({ cardNo: known.cardNo, driverId: known.driverId });
    // Each session begins with the ignition on: the vehicle reported with it on at that instant.
    for (const s of sessions.body) {
      const r = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM position WHERE vehicle_id = ${known.id} AND device_time = ${new Date(s.begin)}`.execute(db);
      expect(r.rows[0].n).toBe(1);
    }

    const stranger = await vehicle(phones[1]);
    const unknown = await h.s.call(admin, 'POST', '/api/vehicle/driverCard/unknown', { criteria: { vehicleId: stranger.id } });
    expect(unknown.body).toEqual([
      expect.objectContaining({ cardNo: UNKNOWN_DEMO_CARD.cardNo, holderName: UNKNOWN_DEMO_CARD.name, vehicleId: stranger.id }),
    ]);
  });
});
