import type { Page } from 'playwright-core';
import { screenshot, useConsoleSuite } from './helpers/console';
import { watch } from './helpers/pageChecks';

/**
 * Video in a real browser: on a demo server whose simulated terminals are camera terminals,
 * the monitor's vehicle card (and the vehicle detail) opens a camera channel, and chromium plays the terminal's stream
 * (mpegts.js over the stream ticket's WebSocket): the video element advances and decodes frames.
 * The vehicle detail's recordings play back from the timeline, paused and sped up; an alarm opens
 * its vehicle's video at the alarm's time.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 2, historyDays: 1 } });
const { api } = suite;

interface Item {
  vehicleId: number;
  licence: string;
  latitude: number | null;
}

/** The video element's picture moves on past `seconds`, with frames decoded. */
async function advancing(page: Page, testId: string, seconds: number): Promise<void> {
  await page.waitForFunction(
    ([id, s]) => {
      const v = document.querySelector<HTMLVideoElement>(`[data-testid=${id}]`);
      return !!v && v.currentTime > s && v.getVideoPlaybackQuality().totalVideoFrames > 10;
    },
    [testId, seconds] as const,
  );
}

describe('live video', () => {
  it('plays a camera of the vehicle chosen on the monitor', async () => {
    const fleet = (await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[];
    const vehicle = fleet.find((v) => v.latitude !== null);
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
      // The live latency: how long ago the picture on screen reached the server, in ms.
      const latency = page.getByTestId('live-video-latency');
      await latency.waitFor();
      expect(await latency.innerText()).toMatch(/\d+/);
      expect(Number(await latency.getAttribute('data-latency-ms'))).toBeGreaterThanOrEqual(0);
      await screenshot(page, 'monitor-live-video');
      // Its sound (the clip's G.711A tone, decoded by the server) plays once switched on.
      await page.getByTestId('live-video-sound').click();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=live-video-sound]')?.getAttribute('data-played')) > 5);
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

      // Recordings: the day's list on the timeline; a click on a recording plays it from there.
      await page.getByTestId('video-tab-playback').click();
      await page.getByTestId('live-video').waitFor({ state: 'detached' });
      await page.locator('[data-testid=record-bar]').first().waitFor();
      const bar = (await page.locator('[data-testid=record-bar]').first().boundingBox())!;
      const line = (await page.getByTestId('record-timeline').boundingBox())!;
      await page.mouse.click(bar.x + bar.width / 2, line.y + line.height / 2);
      await page.locator('[data-testid=playback-video][data-state=playing]').waitFor({ timeout: 30_000 });
      await advancing(page, 'playback-video', 1);
      await screenshot(page, 'vehicle-video-playback');
      // Paused: the terminal stops, so the picture stops; resumed at ×4 it runs on, and the cursor with it.
      await page.getByTestId('playback-pause').click();
      await page.locator('[data-testid=playback-pause][data-paused=true]').waitFor();
      await page.locator('.ant-radio-button-wrapper', { hasText: '×4' }).click();
      await page.locator('[data-testid=playback-pause][data-paused=false]').waitFor();
      const shown = await page.getByTestId('playback-position').innerText();
      await advancing(page, 'playback-video', 3);
      await page.waitForFunction((old) => document.querySelector('[data-testid=playback-position]')?.textContent !== old, shown);

      // The grid: four cameras live at once.
      await page.getByTestId('video-tab-grid').click();
      await page.getByTestId('playback-video').waitFor({ state: 'detached' });
      await page.locator('[data-testid=video-grid][data-size="4"]').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=live-video][data-state=playing]').length === 4, undefined, {
        timeout: 30_000,
      });
      await screenshot(page, 'vehicle-video-grid');
      await page.locator('.ant-modal-close').click();
      await page.getByTestId('video-grid').waitFor({ state: 'detached' });

      // From the alarm centre: a past alarm of the vehicle opens its recording at the alarm's time.
      // An alarm of a vehicle of the demo fleet (its terminals are the camera terminals).
      const cameras = new Set(fleet.filter((v) => v.latitude !== null).map((v) => v.vehicleId));
      const alarms = (
        (await api('POST', '/vehicle/alarm/query', { criteria: {}, pageIndex: 1, pageSize: 500 })).data as Array<{
          id: number;
          vehicleId: number;
          status: string;
          end: string | null;
        }>
      ).filter((a) => cameras.has(a.vehicleId));
      const past = alarms.find((a) => a.end !== null) ?? alarms[0];
      expect(past).toBeDefined();
      await page.goto(`/alarm/all?alarmId=${past.id}`);
      const alarmVideo = page.getByTestId('alarm-video').first();
      await alarmVideo.waitFor();
      await alarmVideo.click();
      const expected = past.status === 'open' && past.end === null ? 'live-video' : 'playback-video';
      await page.locator(`[data-testid=${expected}][data-state=playing]`).waitFor({ timeout: 30_000 });
      await advancing(page, expected, 1);
      expect(problems).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
