import { OfflineDistricts } from '../../../server/geocode/offlineDistricts';
import { distanceKm } from '../../../server/intelligence/geo';
import { historyDays } from '../../../server/simulator/history';
import { CITIES, SimVehicle } from '../../../server/simulator/vehicle';

jest.setTimeout(120_000);

const UNTIL = Date.parse('2026-12-03T04:00:00Z');
const TERMINALS = 12;
const DAYS = 30;

/**
 * The demo history and live run look like a real fleet's: every position on land, in China's
 * districts (the offline boundaries the server geocodes with), each working day back at its
 * depot by night, so a month does not wander out of town, and long hauls of differing lengths.
 */
describe('the demo fleet’s month', () => {
  const districts = new OfflineDistricts();
  const fleet = Array.from({ length: TERMINALS }, (_, i) => ({
    phone: `0139${String(i).padStart(8, '0')}`,
    city: CITIES[i % CITIES.length],
  }));
  const months = fleet.map((t, i) => historyDays(i, t, { days: DAYS, until: UNTIL }));

  /**
   * Of these positions, those no district holds. A street may cross a river (the Huangpu, by bridge
   * or tunnel) or a sliver between two districts' simplified borders: a few such are the town's; a
   * fleet wandering out to sea makes many (before the town bounds, 632 of about 11,500 here).
   */
  const expectOnLand = async (positions: ReadonlyArray<{ latitude: number; longitude: number }>) => {
    const offshore: string[] = [];
    for (const p of positions) if (!(await districts.lookup(p.latitude, p.longitude))) offshore.push(`${p.latitude},${p.longitude}`);
    expect(offshore.length).toBeLessThanOrEqual(positions.length * 0.002);
  };

  it('stays on land: every tenth report of every terminal lies in a district', async () => {
    await expectOnLand(months.flatMap((days) => days.flat().filter((_, k) => k % 10 === 0)));
  });

  it('ends each whole day within a few kilometres of where the month began', () => {
    for (const days of months) {
      const depot = days[0][0];
      for (const day of days.slice(0, -1)) {
        const last = day[day.length - 1];
        expect(distanceKm(depot, last)).toBeLessThan(3);
      }
    }
  });

  it('drives long hauls of differing lengths', () => {
    const hauls = months.map((days) =>
      days.map((d) => Number(d[d.length - 1].extras?.mileageKm) - Number(d[0].extras?.mileageKm)).filter((km) => km > 400),
    );
    const long = hauls.flat();
    expect(long.length).toBeGreaterThanOrEqual(5);
    // Two may happen to round alike; a month of the same 625 km again and again may not.
    expect(new Set(long.map((km) => Math.round(km))).size).toBeGreaterThanOrEqual(long.length * 0.8);
    for (const mine of hauls.filter((h) => h.length > 1)) expect(new Set(mine.map((km) => Math.round(km))).size).toBeGreaterThan(1);
  });

  it('keeps the live run in town and on land too', async () => {
    const sampled = fleet.flatMap((t, i) => {
      // Seeded as the demo fleet seeds its vehicles (fleet.ts).
      const v = new SimVehicle(i * 7919 + 17, t.city);
      return Array.from({ length: 8_640 }, (_, k) => v.step(10, UNTIL + k * 10_000)).filter((_, k) => k % 50 === 0);
    });
    await expectOnLand(sampled);
  });
});
