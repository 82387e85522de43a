import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The label studio in a real browser under the console's CSP: an analyst edits a field label in the
 * four languages, the live preview (rjsf, precompiled validators) shows the draft on a sample with
 * errors, publishing puts it in the console and the server's 400 messages with no rebuild and no
 * restart, the export is a patch of the locale files, and a reset brings the default back.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite();
const KEY = 'entity.vehicleBrand.fields.name';

/** The server's 400 for a brand without its name, in a language. */
async function missingNameMessage(lang: string): Promise<string> {
  const r = await fetch(`${suite.server.url}/api/vehicle/vehicleBrand`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.adminToken}`, 'accept-language': lang },
    body: JSON.stringify({ manufacturer: 'e2e' }),
  });
  expect(r.status).toBe(400);
  return ((await r.json()) as { message: string }).message;
}

/** The studio's row of the brand's name label (searched, as an analyst finds it). */
async function nameRow(page: Page) {
  await page.getByTestId('labels-search').fill('fields.name');
  const row = page.locator('[data-testid=labels-table] tr', { hasText: KEY });
  await row.waitFor();
  return row;
}

describe('label studio', () => {
  it('edits a label in four languages, previews it, publishes it to the console and the server, exports and resets it', async () => {
    const { page } = await suite.adminPage('en-US');
    page.setDefaultTimeout(60_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    expect(await missingNameMessage('en-US')).toBe('Brand name is required');

    await page.goto('/tools/labels');
    await page.getByTestId('labels-page').waitFor();
    // The preview: the brand form on a sample with errors, checked by the precompiled validators.
    const preview = page.getByTestId('labels-preview');
    await preview.getByText('Brand name is required').waitFor();

    // A draft in one language: shown in the preview, not publishable until all four are done.
    let row = await nameRow(page);
    await row.getByTestId('labels-edit').click();
    await settled(page);
    const dialog = page.locator('.ant-modal:visible');
    await dialog.getByTestId('labels-input-en-US').fill('Make');
    // A placeholder the original lacks is refused in the dialog, in the server's words.
    await dialog.getByTestId('labels-input-ja-JP').fill('{limit}ブランド');
    await dialog.getByTestId('labels-save-draft').click();
    await dialog.getByText('Text uses the placeholder {limit}, which the original does not have (allowed: —)').waitFor();
    await dialog.getByTestId('labels-input-ja-JP').fill('');
    // As the analyst does: wait until the message has gone (its motion moves the footer) and then save.
    await dialog
      .getByText('Text uses the placeholder {limit}, which the original does not have (allowed: —)')
      .waitFor({ state: 'detached' });
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/labels') && r.request().method() === 'PUT' && r.status() === 200),
      dialog.getByTestId('labels-save-draft').click(),
    ]);
    await dialog.waitFor({ state: 'hidden' });
    row = await nameRow(page);
    await row.getByTestId('labels-missing').getByText('Missing: Chinese、Spanish、Japanese').waitFor();
    expect(await row.getByTestId('labels-publish').isDisabled()).toBe(true);
    await preview.getByText('Make is required').waitFor();
    // Users still see the old words.
    expect(await missingNameMessage('en-US')).toBe('Brand name is required');

    // The other three languages, then publish.
    await row.getByTestId('labels-edit').click();
    await settled(page);
    await dialog.getByTestId('labels-input-zh-CN').fill('品牌');
    await dialog.getByTestId('labels-input-es-ES').fill('Marca');
    await dialog.getByTestId('labels-input-ja-JP').fill('ブランド');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/labels/publish') && r.status() === 200),
      dialog.getByTestId('labels-save-publish').click(),
    ]);
    await dialog.waitFor({ state: 'hidden' });
    await screenshot(page, 'labels-studio');

    // No restart: the server's 400 messages use it at once, in every language.
    expect(await missingNameMessage('en-US')).toBe('Make is required');
    expect(await missingNameMessage('zh-CN')).toBe('品牌不能为空');
    // No rebuild: the console's brand page, freshly loaded, shows it.
    await page.goto('/fleet/brand');
    await page.locator('.ant-table-thead th', { hasText: /^Make$/ }).waitFor();
    // And a console opened afterwards, in another language.
    const other = await suite.adminPage('es-ES');
    await other.page.goto('/fleet/brand');
    await other.page.locator('.ant-table-thead th', { hasText: /^Marca$/ }).waitFor();
    await other.context.close();

    // Export: a patch of the locale files with the published words.
    await page.goto('/tools/labels');
    await page.getByTestId('labels-page').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('labels-export').click()]);
    expect(download.suggestedFilename()).toBe('labels.patch');
    const patch = fs.readFileSync((await download.path())!, 'utf8');
    expect(patch).toContain('+++ b/schemas/locales/en-US/entities/vehicleBrand.json');
    expect(patch).toContain('-    "name": "Brand name",\n+    "name": "Make",');
    expect(patch).toContain('+    "name": "ブランド",');

    // Reset: the default everywhere again.
    row = await nameRow(page);
    await row.getByTestId('labels-reset').click();
    await settled(page);
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/vehicle/labels/catalogue/en-US') && r.status() === 200),
      page.locator('.ant-popconfirm:visible .ant-btn-primary').click(),
    ]);
    await row.getByTestId('labels-text-en-US').getByText('Brand name', { exact: true }).waitFor();
    expect(await missingNameMessage('en-US')).toBe('Brand name is required');
    await preview.getByText('Brand name is required').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
