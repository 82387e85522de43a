import { screenshot, useConsoleSuite } from './helpers/console';
import { watch } from './helpers/pageChecks';

/**
 * Live video in a real browser: on a demo server whose simulated terminals are camera terminals,
 * the monitor's vehicle card (and the vehicle detail) opens a camera channel, and chromium plays the terminal's stream
 * (mpegts.js over the stream ticket's WebSocket): the video element advances and decodes frames.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 2, historyDays: 1 } });
const { api } = suite;

interface Item {
  vehicleId: number;
  licence: string;
  latitude: number | null;
}

describe('live video', () => {
  it('plays a camera of the vehicle chosen on the monitor', async () => {
    const vehicle = ((await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[]).find((v) => v.latitude !== null);
    expect(vehicle).toBeDefined();
    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);
    try {
      await page.goto('/fleet/monitor');
      await page.locator('input[data-testid=monitor-search], [data-testid=monitor-search] input').first().fill(vehicle!.licence);
      await page.locator(`[data-testid=monitor-row][data-vehicle-id="${vehicle!.vehicleId}"]`).click();
      await page.getByTestId('vehicle-card').waitFor();
      const button = page.getByTestId('card-video');
      await page.waitForFunction(() => !document.querySelector('[data-testid=card-video]')?.hasAttribute('disabled'));
      await button.click();
      await page.locator('[data-testid=live-video][data-state=playing]').waitFor({ timeout: 30_000 });
      // The picture moves on: time advances and frames are decoded.
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid=live-video]');
        return !!v && v.currentTime > 1 && v.getVideoPlaybackQuality().totalVideoFrames > 10;
      });
      const size = await page.$eval('[data-testid=live-video]', (v) => [
        (v as HTMLVideoElement).videoWidth,
        (v as HTMLVideoElement).videoHeight,
      ]);
      expect(size).toEqual([320, 240]);
      const firstFrame = await page.getByTestId('live-video-first-frame').innerText();
      expect(firstFrame).toMatch(/\d+/);
      await screenshot(page, 'monitor-live-video');
      // Another camera: a new stream from its own I frame.
      const first = await page.$('[data-testid=live-video]');
      await page.locator('.ant-radio-button-wrapper', { has: page.getByTestId('video-channel-2') }).click();
      await page.waitForFunction((old) => !old?.isConnected, first);
      await page.locator('[data-testid=live-video][data-state=playing]').waitFor({ timeout: 30_000 });
      await page.locator('.ant-modal-close').click();
      await page.getByTestId('live-video').waitFor({ state: 'detached' });

      // The vehicle detail has the same video.
      await page.goto(`/vehicleDetail/vehicleDetail/${vehicle!.vehicleId}`);
      await page.getByTestId('vehicle-detail').waitFor();
      await page.getByTestId('card-video').click();
      await page.locator('[data-testid=live-video][data-state=playing]').waitFor({ timeout: 30_000 });
      expect(problems).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
