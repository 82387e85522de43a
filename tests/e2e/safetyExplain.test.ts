import type { Page } from 'playwright-core';
import { translate } from '../../schemas/kit/catalogue';
import type { Language } from '../../schemas/kit/i18n';
import { dayOf } from '../../src/components/statistics/statsCriteria';
import { overspeedEverywhere } from './helpers/alarms';
import { screenshot, useConsoleSuite } from './helpers/console';
import { openPage, watch } from './helpers/pageChecks';

/**
 * The safety score's explanation page in a real browser against `npm start` on a fresh demo
 * database: the demo fleet uploads a day of history through the gateway, then reports live under
 * an OverSpeed policy every moving vehicle breaks, so its vehicles have events with places. The
 * page in each of the four languages, and a review from the page.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 2, historyDays: 1 } });
const { api } = suite;
const X = 'console.statistics.safetyExplain';

interface Explained {
  licence: string;
  score: number | null;
  events: Array<{ kind: string; at: string; latitude: number | null; share: number; severity: string | null }>;
}

let vehicleId = 0;

/** A vehicle of the demo whose window has events with a place (the live fleet adds them as it drives). */
async function vehicleWithEvents(): Promise<number> {
  const today = dayOf(new Date());
  const deadline = Date.now() + 240_000;
  for (;;) {
    const ranking = (await api('POST', '/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', { criteria: { begin: today, end: today } }))
      .ranking as Array<{ vehicleId: number; score: number | null }>;
    for (const r of ranking) {
      const x = (await api('POST', '/vehicle/dailyDrivingBehavior/safetyExplain', { criteria: { vehicleId: r.vehicleId } })) as Explained;
      if (x.events.some((e) => e.latitude !== null && e.share > 0)) return r.vehicleId;
    }
    if (Date.now() > deadline) throw new Error('no demo vehicle has a scored event with a place');
    await new Promise((r) => setTimeout(r, 2000));
  }
}

beforeAll(async () => {
  await overspeedEverywhere(api);
  vehicleId = await vehicleWithEvents();
}, 300_000);

/** Message keys shown raw (a key missing from the language) and error toasts on screen. */
async function screenFaults(page: Page): Promise<string[]> {
  const text = await page.locator('main, .ant-layout-content').first().innerText();
  const raw = text.match(/\b(?:console|reports|behaviour|menu)\.[A-Za-z]+\.[\w.]+/g) ?? [];
  const toasts = await page.locator('.ant-message-error, .ant-notification-notice-error').allInnerTexts();
  return [...raw, ...toasts];
}

const rowsOf = (page: Page) => page.getByTestId('safety-explain-events').locator('.ant-table-tbody tr.ant-table-row');

describe('the safety score explained', () => {
  it.each<Language>(['zh-CN', 'en-US', 'es-ES', 'ja-JP'])('shows each event on the map and in the table, in %s', async (lang) => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage(lang, (p) => {
      problems = watch(p);
    });
    const answered = await openPage(page, `/statistics/safetyExplain?vehicleId=${vehicleId}`, 'dailyDrivingBehavior/safetyExplain');
    const x = (await answered.json()) as Explained;
    await page
      .getByTestId('safety-explain-summary')
      .getByText(translate(lang, `${X}.title`, { licence: x.licence }))
      .waitFor();
    await page
      .getByTestId('safety-explain-summary')
      .getByText(translate(lang, `${X}.percentile`))
      .waitFor();
    await page
      .getByTestId('safety-explain-summary')
      .getByText(translate(lang, `${X}.formula`))
      .waitFor();
    await rowsOf(page).first().waitFor();
    expect(await rowsOf(page).count()).toBe(Math.min(20, x.events.length));
    // The first event's kind in the language (a speeding run by its severity).
    const first = x.events[0];
    const kindKey =
      first.kind === 'speeding'
        ? `behaviour.fields.speeding${(first.severity ?? 'light')[0].toUpperCase()}${(first.severity ?? 'light').slice(1)}`
        : `behaviour.fields.${first.kind}`;
    expect(await rowsOf(page).first().getByTestId('safety-explain-kind').innerText()).toBe(translate(lang, kindKey));
    await page
      .getByTestId('safety-explain-events')
      .getByText(translate(lang, `${X}.share`))
      .first()
      .waitFor();
    // One drawn marker per event with a place.
    const placed = x.events.filter((e) => e.latitude !== null).length;
    await page.locator('[data-testid=safety-explain-map] path.leaflet-interactive').first().waitFor();
    expect(await page.locator('[data-testid=safety-explain-map] path.leaflet-interactive').count()).toBe(placed);
    await screenshot(page, `statistics-safety-explain-${lang}`);
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reviews an event from the page: dismissed with a note, it no longer counts', async () => {
    let problems: string[] = [];
    const { page, context } = await suite.adminPage('zh-CN', (p) => {
      problems = watch(p);
    });
    await openPage(page, `/statistics/safetyExplain?vehicleId=${vehicleId}`, 'dailyDrivingBehavior/safetyExplain');
    const row = rowsOf(page)
      .filter({ has: page.getByTestId('safety-explain-share').filter({ hasNotText: '−0.00' }) })
      .first();
    await row.waitFor();
    const at = await row.getAttribute('data-row-key');
    await row.getByTestId('safety-explain-review').click();
    const form = page.getByTestId('safety-explain-review-form');
    await form.waitFor();
    // No note: the form says so in Chinese and nothing is sent.
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.getByText(translate('zh-CN', `${X}.noteRequired`)).waitFor();
    await form.locator('textarea').fill('误报：GPS 漂移');
    const [saved, reloaded] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/safetyEvent/review') && r.request().method() === 'PUT'),
      page.waitForResponse((r) => r.url().endsWith('/safetyExplain') && r.request().method() === 'POST'),
      page.locator('.ant-modal-footer .ant-btn-primary').click(),
    ]);
    expect(saved.status()).toBe(200);
    const after = (await reloaded.json()) as Explained & { events: Array<{ review: { state: string } | null }> };
    const reviewed = after.events.find((e) => `${e.kind}@${e.at}` === at);
    expect(reviewed).toMatchObject({ share: 0, review: { state: 'dismissed' } });
    const shown = page.locator(`[data-row-key="${at}"]`);
    await shown.getByText(translate('zh-CN', `${X}.state.dismissed`)).waitFor();
    await shown.getByText('误报：GPS 漂移').waitFor();
    expect(await screenFaults(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
