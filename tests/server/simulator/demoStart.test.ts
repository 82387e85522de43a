import { sql } from 'kysely';
import { distanceKm } from '../../../server/intelligence/geo';
import { demoFleet } from '../../../server/simulator/demo';
import { Fleet } from '../../../server/simulator/fleet';
import { playHistory } from '../../../server/simulator/history';
import { BACKENDS } from '../../helpers/testServer';
import { startGateway, until, type GatewayHarness } from '../telematics/gateway/harness';

/**
 * The demo fleet's live run goes on from where each vehicle was last seen (its history's end, or
 * the last run's before a restart): a run that began elsewhere in the city, with another odometer,
 * was a jump of up to hundreds of kilometres between two reports.
 */
describe.each(BACKENDS)('the demo fleet after its history on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend);
  });
  afterAll(() => h.close());

  it('starts its live run where the history ended: the same place, the same odometer', async () => {
    const db = h.s.database.db;
    const terminals = await demoFleet(db, 1);
    expect(terminals[0].start).toBeUndefined(); // never seen yet
    await playHistory({ host: '127.0.0.1', port: h.port, terminals, days: 1 });
    const vehicleId = (
      await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${terminals[0].phone}`.execute(db)
    ).rows[0].id;
    const newest = async () =>
      (
        await sql<{ ms: number; latitude: number; longitude: number; mileage_km: number | null }>`
          SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, mileage_km
          FROM position WHERE vehicle_id = ${vehicleId} ORDER BY device_time DESC LIMIT 1`.execute(db)
      ).rows[0];
    await until(async () => (await newest()) !== undefined);
    const ended = await newest();

    const live = await demoFleet(db, 1);
    expect(live[0].start).toMatchObject({ latitude: ended.latitude, longitude: ended.longitude, mileageKm: ended.mileage_km });
    const fleet = new Fleet({ host: '127.0.0.1', port: h.port, terminals: live, intervalMs: 100, outageChance: 0 });
    await fleet.start();
    try {
      await until(async () => Number((await newest()).ms) > Number(ended.ms));
      const first = (
        await sql<{ latitude: number; longitude: number; mileage_km: number | null }>`
          SELECT latitude, longitude, mileage_km FROM position WHERE vehicle_id = ${vehicleId} AND device_time > ${new Date(Number(ended.ms))}
          ORDER BY device_time LIMIT 1`.execute(db)
      ).rows[0];
      // One step of 100 ms from where it stood: metres, not kilometres.
      expect(distanceKm(ended, first)).toBeLessThan(0.05);
      expect(Math.abs(first.mileage_km! - ended.mileage_km!)).toBeLessThan(0.1);
    } finally {
      await fleet.stop(1000);
    }
  });
});
