import type { Locator } from 'playwright-core';
import { screenshot, useConsoleSuite } from './helpers/console';
import { watch } from './helpers/pageChecks';

/**
 * Positions read as places: on a demo server with no geocoding provider and no network, the
 * monitor's card, a vehicle's messages and its playback's trips and stops show the province, city
 * and district from the shipped boundaries (the coordinates on hover), the same the server answers.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 2, historyDays: 1 } });
const { api } = suite;

interface Item {
  vehicleId: number;
  licence: string;
  latitude: number | null;
  longitude: number | null;
}

/** A district as a person reads it: province, city, then district or county (a municipality or special region once). */
const DISTRICT = /^[\u4e00-\u9fa5]+(省|自治区|市|特别行政区)[\u4e00-\u9fa5]*(区|县|市|旗)$/;

/** The server's addresses of positions, in their order. */
const reverse = (points: Array<{ latitude: number; longitude: number }>) =>
  api('POST', '/vehicle/geocode/reverse', { points }) as Promise<{
    provider: string | null;
    data: Array<{ address: string | null; source: string | null }>;
  }>;

/** The place a cell shows once its address has come (before that, its coordinates). */
async function placeOf(place: Locator): Promise<{ text: string; source: string | null }> {
  const answered = place.and(place.page().locator('[data-source=district], [data-source=provider]'));
  await answered.waitFor();
  return { text: (await answered.innerText()).trim(), source: await answered.getAttribute('data-source') };
}

describe('positions shown as places', () => {
  it('names the district on the monitor card, in the messages and in the playback lists', async () => {
    // A vehicle the server places in a district (a demo vehicle may stand on the water, where it names none).
    const positioned = ((await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[]).filter(
      (v): v is Item & { latitude: number; longitude: number } => v.latitude !== null && v.longitude !== null,
    );
    const answered = await reverse(positioned.map((v) => ({ latitude: v.latitude, longitude: v.longitude })));
    expect(answered.provider).toBeNull();
    const placed = answered.data.findIndex((d) => d.address !== null);
    expect(placed).toBeGreaterThanOrEqual(0);
    expect(answered.data[placed].address).toMatch(DISTRICT);
    const vehicle = positioned[placed];

    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);
    try {
      await page.goto('/fleet/monitor');
      await page.locator('input[data-testid=monitor-search], [data-testid=monitor-search] input').first().fill(vehicle.licence);
      await page.locator(`[data-testid=monitor-row][data-vehicle-id="${vehicle.vehicleId}"]`).click();
      const card = page.getByTestId('vehicle-card');
      await card.waitFor();
      const onCard = await placeOf(card.getByTestId('place-text'));
      // The card follows the live position, which may have moved on within the district since the API was asked.
      expect(onCard).toEqual({ text: expect.stringMatching(DISTRICT), source: 'district' });
      await screenshot(page, 'monitor-card-place');

      // The stored reports: each row's place, never raw coordinates once the address has come.
      await page.goto(`/vehicleDetail/vehicleDetail/${vehicle.vehicleId}`);
      await page.getByTestId('vehicle-detail').waitFor();
      await page.getByRole('tab', { name: '消息' }).click();
      const first = page.locator('[data-testid=detail-positions] .ant-table-row').first();
      await first.waitFor();
      expect(await placeOf(first.getByTestId('place-text'))).toEqual({ text: expect.stringMatching(DISTRICT), source: 'district' });
      // Hovering a place shows its coordinates.
      await first.getByTestId('place-text').hover();
      await page
        .locator('.ant-tooltip:visible')
        .getByText(/^\d+\.\d{5}, \d+\.\d{5}$/)
        .waitFor();

      // The playback's trips: from where to where.
      await page.goto(`/vehicleDetail/vehicleDetail/${vehicle.vehicleId}?tab=track`);
      // Each trip's ends: the district where the server names one; the coordinates where it names none
      // (a route may end on the water). The answer for all of them comes at once.
      const ends = page.getByTestId('track-trip-places').getByTestId('place-text');
      await ends.and(page.locator('[data-source=district]')).first().waitFor();
      const shown = await ends.evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', source: e.getAttribute('data-source') })));
      expect(shown.length).toBeGreaterThanOrEqual(2);
      for (const end of shown) {
        if (end.source === 'district') {
          expect(end.text).toMatch(DISTRICT);
          continue;
        }
        const [latitude, longitude] = end.text.split(', ').map(Number);
        const none = await reverse([{ latitude, longitude }]);
        expect({ end, address: none.data[0].address }).toEqual({
          end: { text: expect.stringMatching(/^\d+\.\d{5}, \d+\.\d{5}$/), source: '' },
          address: null,
        });
      }
      await screenshot(page, 'playback-trip-places');
      expect(problems).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
