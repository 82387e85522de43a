import { playLegs } from '../../../server/simulator/dayScript';
import { ADMIN_PASSWORD, BACKENDS } from '../../helpers/testServer';
import { demoTerminal, startDeriveHarness, type DeriveHarness } from './harness';

/**
 * A vehicle on the road right now: parked, then driving with no stop yet. Its trip is still open,
 * and today's ledger figures (the dashboard's, the vehicle's) already count it.
 */
describe.each(BACKENDS)("the open trip in today's figures on %s", (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(2);
    const t = await h.terminal(phone);
    // 20 minutes parked, then 30 minutes at 36 km/h, ending a minute ago (today in Shanghai unless
    // the run straddles its midnight, which the assertions allow for).
    const start = Date.now() - 51 * 60_000;
    const reports = playLegs({ time: start, latitude: 31.2304, longitude: 121.4737, odometerKm: 5_000, fuelL: 60 }, [
      { kind: 'park', minutes: 20 },
      { kind: 'drive', minutes: 30, kmh: 36, heading: 90 },
    ]);
    await h.send(t, reports, 'batch');
    await h.derived();
    vehicleId = await h.vehicleOf(phone);
  });
  afterAll(() => h.close());

  it('counts the trip no stop has ended yet in today, this month and the vehicle detail', async () => {
    const trips = await h.s.call(admin, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}`, {
      criteria: { begin: new Date(Date.now() - 86_400_000).toISOString(), end: new Date(Date.now() + 60_000).toISOString() },
      pageIndex: 1,
      pageSize: 10,
    });
    expect(trips.body.data).toHaveLength(1);
    expect(trips.body.data[0]).toMatchObject({ open: true });
    const home = await h.s.call(admin, 'GET', '/api/vehicle/dailyDrivingBehavior/home');
    expect(home.status).toBe(200);
    const { today, yesterday } = home.body as {
      today: { mileageKm: number; tripCount: number };
      yesterday: { mileageKm: number; tripCount: number };
    };
    // The trip's 18 km lie in today (or, just after midnight, partly in yesterday).
    expect(today.mileageKm + yesterday.mileageKm).toBeCloseTo(18, 0);
    expect(today.mileageKm).toBeGreaterThan(0);
    expect(today.tripCount + yesterday.tripCount).toBe(1);
    const detail = await h.s.call(admin, 'GET', `/api/vehicle/vehicleReport/${vehicleId}`);
    expect(detail.body.today.mileageKm).toBeGreaterThan(0);
    expect(detail.body.lastTrip).toMatchObject({ open: true });
  });
});
