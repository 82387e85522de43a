import type { Page } from 'playwright-core';
import { entityRows, screenshot, useConsoleSuite } from './helpers/console';
import { settled, watch } from './helpers/pageChecks';

/**
 * Fences from the console as a fleet manager uses them: opened and stopped from their row, bound
 * to vehicles and unbound; a new fence's editor opens on the fleet and takes a typed radius; and on
 * the live monitor, a vehicle inside overlapping fences still names itself on hover.
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

interface Fence {
  id: number;
  name: string;
  status: 'open' | 'stopped';
}

const positionedVehicles = async () =>
  ((await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[]).filter(
    (v) => v.latitude !== null && v.longitude !== null,
  );

const linksOf = async (fenceId: number) =>
  (await api('POST', '/vehicle/vehicleFence/query', { criteria: { fenceId }, pageIndex: 1, pageSize: 100 })).data as Array<{
    id: number;
    licence: string;
  }>;

async function openFences(page: Page): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/fence/query')), page.goto('/fleet/fence')]);
}

/** Confirms the popconfirm a row link just opened, and waits for the call it makes. */
async function confirm(page: Page, call: (url: string, method: string) => boolean): Promise<number> {
  await settled(page);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => call(r.url(), r.request().method())),
    page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click(),
  ]);
  return answer.status();
}

describe('fences from the console', () => {
  it('stops and opens a fence from its row, and binds vehicles to it and unbinds one', async () => {
    const fence = (await api('PUT', '/vehicle/fence', {
      name: 'E2E开关围栏',
      fenceType: 'circle',
      geometry: { center: [120.15, 30.28], radius: 800 },
    })) as Fence;
    expect(fence.status).toBe('open');
    const vehicles = (await api('POST', '/vehicle/vehicle/query', { criteria: {}, pageIndex: 1, pageSize: 2 })).data as Array<{
      id: number;
      licence: string;
    }>;
    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);
    try {
      await openFences(page);
      const row = entityRows(page, 'fence').filter({ hasText: 'E2E开关围栏' });
      await row.getByText('已开启').waitFor();

      // Stop: asked first, then the fence is stopped on the server and the row says so.
      await row.getByTestId('row-fence-stop').click();
      await page.locator('.ant-popover:visible').getByText('停止围栏“E2E开关围栏”？停止后不再产生该围栏的告警。').waitFor();
      expect(await confirm(page, (u, m) => u.endsWith(`/api/vehicle/fence/stop/${fence.id}`) && m === 'POST')).toBe(200);
      await page.getByText('围栏“E2E开关围栏”已停止').waitFor();
      await row.getByText('已停止').waitFor();
      expect(((await api('GET', `/vehicle/fence/${fence.id}`)) as Fence).status).toBe('stopped');

      // Open again.
      await row.getByTestId('row-fence-open').click();
      expect(await confirm(page, (u, m) => u.endsWith(`/api/vehicle/fence/open/${fence.id}`) && m === 'POST')).toBe(200);
      await row.getByText('已开启').waitFor();
      expect(((await api('GET', `/vehicle/fence/${fence.id}`)) as Fence).status).toBe('open');

      // Bind two vehicles: none bound yet, so the fence applies to the whole organisation, as the dialog says.
      await row.getByTestId('row-fence-vehicles').click();
      const dialog = page.getByTestId('fence-vehicles');
      await dialog.getByText('未绑定车辆：该围栏对其所属机构及下级机构的全部车辆生效。').waitFor();
      await settled(page);
      for (const v of vehicles) {
        await dialog.getByTestId('fence-bind-select').locator('.ant-select').click();
        await page.keyboard.type(v.licence);
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: v.licence }).first().click();
      }
      await page.keyboard.press('Escape');
      const [bound] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/vehicle/vehicleFence') && r.request().method() === 'PUT'),
        dialog.getByTestId('fence-bind').click(),
      ]);
      expect(bound.status()).toBe(200);
      await page.getByText('已将 2 辆车绑定到围栏“E2E开关围栏”').waitFor();
      await dialog.getByText('该围栏只对下列车辆生效。').waitFor();
      for (const v of vehicles) await dialog.locator('.ant-table-row').filter({ hasText: v.licence }).waitFor();
      expect((await linksOf(fence.id)).map((l) => l.licence).sort()).toEqual(vehicles.map((v) => v.licence).sort());
      await screenshot(page, 'fence-vehicles');

      // Unbind the first: asked first, then only the other stays bound.
      await dialog.locator('.ant-table-row').filter({ hasText: vehicles[0].licence }).getByTestId('fence-unbind').click();
      await page.locator('.ant-popover:visible').getByText(`将 ${vehicles[0].licence} 从围栏“E2E开关围栏”解绑？`).waitFor();
      expect(await confirm(page, (u, m) => u.includes('/api/vehicle/vehicleFence/deleteRel/') && m === 'DELETE')).toBe(204);
      await page.waitForSelector('[data-testid=fence-vehicles][data-links="1"]');
      expect((await linksOf(fence.id)).map((l) => l.licence)).toEqual([vehicles[1].licence]);
      expect(await dialog.locator('.ant-table-row').filter({ hasText: vehicles[0].licence }).count()).toBe(0);
      expect(problems).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens a new fence’s editor on the fleet, not on all of China, and takes a typed radius', async () => {
    const positioned = await positionedVehicles();
    expect(positioned.length).toBeGreaterThan(0);
    const { page, context, external } = await suite.adminPage();
    const problems = watch(page);
    const radius = () => page.locator('[data-testid=fence-radius] input, input[data-testid=fence-radius]').first();
    try {
      await openFences(page);
      await page.getByTestId('entity-add').click();
      const form = page.locator('.ant-drawer-content, .ant-modal-content').filter({ has: page.getByTestId('fence-editor') });
      await form.waitFor();
      const item = (label: string) => form.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
      await item('围栏名称').locator('input').fill('E2E半径围栏');
      await item('围栏类型').locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '圆形' }).first().click();
      await page.waitForSelector('[data-testid=fence-editor][data-type=circle][data-view=fleet]');
      // The scale bar reads what a person sees: a city's kilometres, not China's hundreds.
      const scale = (await page.getByTestId('fence-map').locator('.leaflet-control-scale-line').first().innerText()).trim();
      expect(scale).toMatch(/^\d+ (m|km)$/);
      if (scale.endsWith('km')) expect(Number.parseInt(scale, 10)).toBeLessThan(200);

      // A typed radius draws a circle of it in the middle of that view.
      await radius().fill('5000');
      await page.waitForSelector('[data-testid=fence-editor][data-geometry*="\\"radius\\":5000"]');
      const drawn = JSON.parse((await page.getByTestId('fence-editor').getAttribute('data-geometry'))!) as {
        center: [number, number];
        radius: number;
      };
      const lngs = positioned.map((v) => v.longitude!);
      const lats = positioned.map((v) => v.latitude!);
      expect(drawn.center[0]).toBeGreaterThanOrEqual(Math.min(...lngs) - 0.5);
      expect(drawn.center[0]).toBeLessThanOrEqual(Math.max(...lngs) + 0.5);
      expect(drawn.center[1]).toBeGreaterThanOrEqual(Math.min(...lats) - 0.5);
      expect(drawn.center[1]).toBeLessThanOrEqual(Math.max(...lats) + 0.5);
      // Typed again, the same circle takes the new radius.
      await radius().fill('1200');
      await page.waitForSelector('[data-testid=fence-editor][data-geometry*="\\"radius\\":1200"]');
      expect((JSON.parse((await page.getByTestId('fence-editor').getAttribute('data-geometry'))!) as typeof drawn).center).toEqual(
        drawn.center,
      );
      await screenshot(page, 'fence-radius');
      const [saved] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/vehicle/fence') && r.request().method() === 'PUT'),
        form.getByRole('button', { name: /确\s*定/ }).click(),
      ]);
      expect(saved.status()).toBe(201);
      const body = (await saved.json()) as { id: number };
      expect(((await api('GET', `/vehicle/fence/${body.id}`)) as { geometry: unknown }).geometry).toEqual({
        center: drawn.center,
        radius: 1200,
      });
      expect(problems).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on the monitor, a vehicle inside two overlapping open fences names itself on hover; beside it, both fences are named', async () => {
    const [vehicle] = await positionedVehicles();
    const names = ['E2E重叠围栏甲', 'E2E重叠围栏乙'];
    for (const [i, name] of names.entries()) {
      const f = (await api('PUT', '/vehicle/fence', {
        name,
        fenceType: 'circle',
        geometry: { center: [vehicle.longitude! + i * 0.001, vehicle.latitude!], radius: 50_000 },
      })) as Fence;
      if (f.status !== 'open') await api('POST', `/vehicle/fence/open/${f.id}`);
    }
    const { page, context, external } = await suite.adminPage();
    try {
      await page.goto('/fleet/monitor');
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=monitor-map-box]')?.getAttribute('data-fences')) >= 2);
      // The vehicle chosen and followed: the map centres on it, standing alone.
      await page.locator('input[data-testid=monitor-search], [data-testid=monitor-search] input').first().fill(vehicle.licence);
      await page.locator(`[data-testid=monitor-row][data-vehicle-id="${vehicle.vehicleId}"]`).click();
      await page.getByTestId('vehicle-card').waitFor();
      await page.getByTestId('follow-switch').click();
      const b = (await page.getByTestId('monitor-map').boundingBox())!;
      // A closed tooltip fades out over 200 ms and stays in the document meanwhile, transparent: only
      // the ones a person can see count.
      const tooltips = () =>
        page.$$eval('.leaflet-tooltip', (ts) =>
          ts.filter((t) => getComputedStyle(t).opacity !== '0').map((t) => (t as HTMLElement).innerText),
        );
      const card = (await page.getByTestId('vehicle-card').boundingBox())!;
      const hover = async (dx: number, dy: number, want: (texts: string[]) => boolean) => {
        const x = b.x + b.width / 2 + dx;
        const y = b.y + b.height / 2 + dy;
        // The point must be on the map itself: over the vehicle card the map hears no pointer at all.
        expect(x < card.x || x > card.x + card.width || y < card.y || y > card.y + card.height).toBe(true);
        for (let step = 0; step < 2; step++) await page.mouse.move(x + step, y, { steps: 3 });
        // The canvas answers a pointer move within a frame or two (its hover test runs at most every
        // 32 ms), and a closing tooltip takes 200 ms to fade: keep nudging the pointer until the map
        // shows what a person would see, however slow the machine.
        const until = Date.now() + 10_000;
        for (let tries = 0; Date.now() < until && !want(await tooltips()); tries++) {
          await page.mouse.move(x + (tries % 2), y, { steps: 2 });
        }
        return tooltips();
      };
      const onVehicle = await hover(0, 0, (ts) => ts.includes(vehicle.licence));
      expect(onVehicle).toContain(vehicle.licence);
      // Left of the vehicle: the card stands over the map's top right.
      const beside = await hover(-90, 70, (ts) => ts.some((t) => names.every((n) => t.includes(n))) && !ts.includes(vehicle.licence));
      expect(beside.some((t) => names.every((n) => t.includes(n)))).toBe(true);
      expect(beside).not.toContain(vehicle.licence);
      await screenshot(page, 'monitor-overlapping-fences');
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
