import type { Page, WebSocketRoute } from 'playwright-core';
import { screenshot, useConsoleSuite } from './helpers/console';
import { settled } from './helpers/pageChecks';

/**
 * The live monitor, the vehicle detail and track playback in a real browser, against `npm start` on
 * a fresh demo database with its gateway and simulated terminals reporting every 10 s, and no map
 * tiles (MAP_TILE_URL=off): nothing may be asked of any other host.
 */
jest.setTimeout(300_000);

const suite = useConsoleSuite({ demoFleet: { terminals: 24, historyDays: 1 } });
const { api } = suite;

interface Item {
  vehicleId: number;
  licence: string;
  latitude: number | null;
  time: string | null;
}

/** Polls the API until `check` answers a value (the server's state, never a fixed wait). */
async function until<T>(check: () => Promise<T | null | undefined>, what: string, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Every row's position, by vehicle id. */
const rowPositions = (page: Page) =>
  page.$$eval('[data-testid=monitor-row]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.getAttribute('data-vehicle-id'), `${r.getAttribute('data-lat')},${r.getAttribute('data-lng')}`])),
  );

describe('live monitor', () => {
  it('shows every demo vehicle on the map, and a marker moves when a terminal reports, over the WebSocket', async () => {
    const all = (await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[];
    expect(all.length).toBeGreaterThan(0);
    // The simulated terminals have reported at least once.
    await until(
      async () =>
        ((await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[]).filter((v) => v.latitude !== null).length >= 2,
      'first positions',
    );

    const { page, context, external } = await suite.adminPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    // The live socket passes through a route, so the test can drop it.
    let liveRoute: WebSocketRoute | undefined;
    await page.routeWebSocket(/\/api\/vehicle\/live$/, (ws) => {
      liveRoute = ws;
      ws.connectToServer();
    });
    await page.goto('/fleet/monitor');
    const box = page.getByTestId('monitor-page');
    await page.waitForSelector(`[data-testid=monitor-page][data-vehicles="${all.length}"]`);
    await page.waitForSelector('[data-testid=monitor-page][data-live=live]');
    expect(await page.getByTestId('monitor-map').getAttribute('data-tiles')).toBe('off');
    // The map draws every vehicle that has a position, on a canvas with a scale bar.
    const positioned = Number(await page.getByTestId('monitor-map-box').getAttribute('data-markers'));
    expect(positioned).toBeGreaterThanOrEqual(2);
    // Markers stand alone on the canvas or crowd into clusters, each cluster showing its count.
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid=monitor-map] canvas').length +
          document.querySelectorAll('[data-testid=monitor-cluster]').length >
        0,
    );
    expect(await page.locator('.leaflet-control-scale').count()).toBe(1);
    expect(await page.getByTestId('monitor-row').count()).toBe(Math.min(all.length, 200));
    // The tree counts the whole fleet at its root.
    expect(await page.getByTestId('monitor-org-tree').innerText()).toContain(`/${all.length})`);
    await screenshot(page, 'monitor-live');

    // Zoomed out, the vehicles crowd into clusters whose counts add up to every positioned vehicle,
    // each ring coloured by its statuses; a click on a cluster zooms into it.
    const clusterTotal = () =>
      page.$$eval('[data-testid=monitor-cluster]', (cs) => cs.reduce((s, c) => s + Number(c.getAttribute('data-count')), 0));
    for (let i = 0; i < 12; i++) {
      const one = await page.$$eval(
        '[data-testid=monitor-cluster]',
        (cs) =>
          cs.length === 1 &&
          Number(cs[0].getAttribute('data-count')) ===
            Number(document.querySelector('[data-testid=monitor-map-box]')?.getAttribute('data-markers')),
      );
      if (one) break;
      const zoom = await page.locator('.leaflet-control-zoom-out');
      if ((await zoom.getAttribute('aria-disabled')) === 'true') break;
      await zoom.click();
      // Each step ends when the map's zoom animation has: no element is still animating.
      await page.waitForFunction(() => !document.querySelector('.leaflet-zoom-anim, .leaflet-cluster-anim'));
    }
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=monitor-cluster]').length === 1);
    const markersNow = Number(await page.getByTestId('monitor-map-box').getAttribute('data-markers'));
    expect(await clusterTotal()).toBe(markersNow);
    const statuses = (await page.getByTestId('monitor-cluster').getAttribute('data-statuses')) ?? '';
    expect(statuses.split(',').reduce((s, kv) => s + Number(kv.split(':')[1]), 0)).toBe(markersNow);
    await screenshot(page, 'monitor-clustered');
    await page.getByTestId('monitor-cluster').click();
    // Zoomed in: more than one cluster or lone marker now, still every vehicle.
    await page.waitForFunction(() => {
      const cs = [...document.querySelectorAll('[data-testid=monitor-cluster]')];
      return (
        cs.length !== 1 ||
        Number(cs[0].getAttribute('data-count')) <
          Number(document.querySelector('[data-testid=monitor-map-box]')?.getAttribute('data-markers'))
      );
    });

    // A report moves a marker: some row's position changes without reloading the page.
    const before = await rowPositions(page);
    await page.waitForFunction(
      (b) =>
        [...document.querySelectorAll('[data-testid=monitor-row]')].some(
          (r) =>
            b[r.getAttribute('data-vehicle-id') ?? ''] !== `${r.getAttribute('data-lat')},${r.getAttribute('data-lng')}` &&
            r.getAttribute('data-lat') !== '',
        ),
      before,
      { timeout: 90_000 },
    );
    expect(sockets.some((u) => u.endsWith('/api/vehicle/live'))).toBe(true);

    // The socket drops: the page reconnects and asks only what changed since its last answer, keeping every vehicle.
    const sinceAsked = page.waitForResponse(
      (r) =>
        r.url().endsWith('/vehicle/monitor/query') &&
        !!(JSON.parse(r.request().postData() ?? '{}') as { criteria?: { since?: string } }).criteria?.since,
    );
    await liveRoute!.close();
    await page.waitForSelector('[data-testid=monitor-page][data-live=reconnecting]');
    const changes = (await (await sinceAsked).json()) as { full: boolean; total: number; columns: { vehicleId: number[] } };
    expect(changes.full).toBe(false);
    expect(changes.total).toBeLessThanOrEqual(all.length);
    await page.waitForSelector('[data-testid=monitor-page][data-live=live]');
    expect(await box.getAttribute('data-vehicles')).toBe(String(all.length));

    // Search narrows the list; choosing a vehicle opens its card.
    const target = all.find((v) => v.latitude !== null) ?? all[0];
    await page.locator('input[data-testid=monitor-search], [data-testid=monitor-search] input').first().fill(target.licence);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=monitor-row]').length === n,
      all.filter((v) => v.licence.toLowerCase().includes(target.licence.toLowerCase())).length,
    );
    await page.locator(`[data-testid=monitor-row][data-vehicle-id="${target.vehicleId}"]`).click();
    await page.getByTestId('vehicle-card').waitFor();
    expect(await page.getByTestId('vehicle-card-licence').innerText()).toBe(target.licence);
    await page.getByTestId('follow-switch').click();
    await screenshot(page, 'monitor-card');
    // Locate now from the card: the command shows its status until the simulated terminal answers.
    await page.getByTestId('card-command').click();
    await page.getByTestId('command-send').waitFor();
    await settled(page);
    await page.getByTestId('command-send').click();
    await page.waitForSelector('[data-testid=command-status][data-status=acked]', { timeout: 30_000 });
    await screenshot(page, 'monitor-command');
    await page.keyboard.press('Escape');
    await box.waitFor();

    // The card's detail action opens the vehicle's own page.
    await page.getByTestId('card-detail').click();
    await page.waitForURL(`**/vehicleDetail/vehicleDetail/${target.vehicleId}`);
    await page.getByTestId('vehicle-detail').waitFor();
    expect(external).toEqual([]);
    await context.close();
  });
});

describe('vehicle detail and track playback', () => {
  it('renders every tab, and playback plays the track', async () => {
    // A vehicle with a track in the last 24 hours (the demo day and the live terminals).
    const all = (await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[];
    const vehicle = await until(async () => {
      // The range ends now, at every try: the live terminals keep adding to it.
      const end = new Date();
      const begin = new Date(end.getTime() - 24 * 3600_000);
      for (const v of all) {
        const r = await api('POST', '/vehicle/track/replay', {
          vehicleId: v.vehicleId,
          begin: begin.toISOString(),
          end: end.toISOString(),
        });
        if (r.points.length >= 5) return v;
      }
      return null;
    }, 'a vehicle with a track');

    const { page, context, external } = await suite.adminPage();
    await page.goto(`/vehicleDetail/vehicleDetail/${vehicle.vehicleId}`);
    await page.getByTestId('vehicle-detail').waitFor();
    expect(await page.getByTestId('detail-licence').innerText()).toBe(vehicle.licence);
    await page.getByTestId('detail-history').waitFor();
    await page.locator('[data-testid=detail-trips] .ant-table-tbody').waitFor();
    await screenshot(page, 'detail-history');

    // The stored reports, paged, with their bits by name.
    await page.getByRole('tab', { name: '消息' }).click();
    await page.locator('[data-testid=detail-positions] .ant-table-row').first().waitFor();
    await screenshot(page, 'detail-messages');

    for (const [tab, id] of [
      ['运输统计与策略', 'detail-statistics'],
      ['车况与工况', 'detail-condition'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByTestId(id).waitFor();
      await screenshot(page, `detail-${id}`);
    }

    await page.getByRole('tab', { name: '轨迹回放' }).click();
    await page.waitForSelector('[data-testid=track-playback][data-state=loaded]');
    // Simplified (maxPoints): a parked stretch keeps its ends only, so at least two points.
    expect(Number(await page.getByTestId('track-playback').getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await page.getByTestId('track-map').waitFor();
    const start = Number(await page.getByTestId('track-playback').getAttribute('data-clock'));
    // The fastest speed (64 minutes of track a second): the range now holds the live fleet's reports
    // too, and at ×1 a day of track takes 24 minutes to play.
    await page.getByTestId('track-speed').click();
    await page.locator('.ant-select-dropdown:visible').getByText('×64', { exact: true }).click();
    // The speed chart's cursor stands at the playback clock before playing...
    await page.waitForSelector('[data-testid=speed-chart][data-cursor-x]:not([data-cursor-x=""])');
    const cursorStart = Number(await page.getByTestId('speed-chart').getAttribute('data-cursor-x'));
    expect(Number(await page.getByTestId('speed-chart').getAttribute('data-at'))).toBe(start);
    await page.getByTestId('track-play').click();
    await page.waitForFunction(
      (s) => Number(document.querySelector('[data-testid=track-playback]')?.getAttribute('data-clock')) > s,
      start,
    );
    // ...and moves right with the marker while it plays, at the clock's time.
    await page.waitForFunction(
      (x) => Number(document.querySelector('[data-testid=speed-chart]')?.getAttribute('data-cursor-x')) > x,
      cursorStart,
    );
    const same = await page.evaluate(
      () =>
        document.querySelector('[data-testid=speed-chart]')?.getAttribute('data-at') ===
        document.querySelector('[data-testid=track-playback]')?.getAttribute('data-clock'),
    );
    expect(same).toBe(true);
    await screenshot(page, 'detail-playback');
    // It plays to the end and stops there.
    await page.waitForSelector('[data-testid=track-playback][data-playing=false]');
    expect(Number(await page.getByTestId('track-playback').getAttribute('data-clock'))).toBeGreaterThan(start);
    // A click at the chart's first quarter seeks back there: the clock and the cursor follow.
    const endClock = Number(await page.getByTestId('track-playback').getAttribute('data-clock'));
    await page.getByTestId('speed-chart').scrollIntoViewIfNeeded();
    const chartBox = (await page.getByTestId('speed-chart').boundingBox())!;
    await page.mouse.click(chartBox.x + 44 + (chartBox.width - 60) * 0.25, chartBox.y + chartBox.height / 2);
    await page.waitForFunction(
      (e) => Number(document.querySelector('[data-testid=track-playback]')?.getAttribute('data-clock')) < e,
      endClock,
    );
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=speed-chart]')?.getAttribute('data-at') ===
        document.querySelector('[data-testid=track-playback]')?.getAttribute('data-clock'),
    );
    // A trip or a stop picked in the side list moves the clock to its start (the map zooms to it).
    await page.getByRole('tab', { name: '停车', exact: true }).click();
    for (const id of ['track-stop', 'track-trip']) {
      if (id === 'track-trip') await page.getByRole('tab', { name: '行程', exact: true }).click();
      const first = page.getByTestId(id).first();
      if (!(await first.count())) continue;
      // A trip that began before the range starts at the range's first report.
      const bounds = [
        Number(await page.getByTestId('track-playback').getAttribute('data-track-begin')),
        Number(await page.getByTestId('track-playback').getAttribute('data-track-end')),
      ];
      const begin = Math.min(bounds[1], Math.max(bounds[0], Number(await first.getAttribute('data-begin'))));
      await first.click();
      await page.waitForFunction(
        (b) => Number(document.querySelector('[data-testid=track-playback]')?.getAttribute('data-clock')) === b,
        begin,
      );
    }
    expect(external).toEqual([]);

    // Only numeric ids: anything else is the 404 page.
    await page.goto('/vehicleDetail/vehicleDetail/abc');
    await page.waitForURL('**/404');
    await context.close();
  });
});

describe('commands from the terminal row', () => {
  it('sends the parameters form (0x8103) to a live terminal and shows its status, then reads them back into the form (0x8104); a value out of bounds is refused on its field', async () => {
    // A terminal that reports (so has a live session).
    const reporting = await until(
      async () => ((await api('POST', '/vehicle/monitor/query', { criteria: {} })).data as Item[]).find((v) => v.latitude !== null),
      'a reporting vehicle',
    );
    // Its terminal, through the vehicle search (SPEC §7 vehicle/query/{x}).
    const found = (await api('GET', `/vehicle/vehicle/query/${encodeURIComponent(reporting.licence)}`)) as {
      value: number;
      terminalId: number;
    }[];
    const { terminalId } = found.find((v) => v.value === reporting.vehicleId)!;
    const item = { terminalId };
    const terminal = (await api('GET', `/vehicle/terminal/${terminalId}`)) as { terminalNo: string };
    const { page, context } = await suite.adminPage();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/terminal/query')), page.goto('/fleet/terminal')]);
    const row = page
      .getByTestId('entity-page-terminal')
      .locator('.ant-table-tbody tr.ant-table-row')
      .filter({ hasText: terminal.terminalNo });
    await row.getByTestId('row-command').click();
    await page.getByTestId('command-send').waitFor();
    await settled(page);
    await page.locator('.ant-modal .ant-radio-button-wrapper').filter({ hasText: '终端参数' }).click();
    await page.locator('.ant-modal .ant-radio-button-wrapper-checked').filter({ hasText: '终端参数' }).waitFor();
    await page.getByTestId('params-form').waitFor();
    // Out of bounds: the field says why, in the console's language, and nothing is sent.
    await page.getByTestId('param-maxSpeed').fill('999');
    await page.getByTestId('command-send').click();
    await page.getByText('最高速度（km/h）不能大于300').waitFor();
    expect(await page.getByTestId('command-status').count()).toBe(0);
    await page.getByTestId('param-maxSpeed').fill('');
    await page.getByTestId('param-heartbeatInterval').fill('30');
    const [sent] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/terminal/${item.terminalId}/command/params`)),
      page.getByTestId('command-send').click(),
    ]);
    expect(sent.request().postDataJSON()).toMatchObject({ params: [{ id: 1, type: 'u32', value: 30 }] });
    await page.waitForSelector('[data-testid=command-status][data-status=acked]', { timeout: 30_000 });
    await screenshot(page, 'terminal-row-params');
    // The server keeps the command with the terminal's answer.
    const list = (await api('GET', `/vehicle/terminal/${item.terminalId}/command`)) as { kind: string; status: string }[];
    expect(list.find((c) => c.kind === 'params')?.status).toBe('acked');

    // Read back from the terminal (0x8104): the form shows what the terminal now holds, 30.
    await page.getByTestId('param-heartbeatInterval').fill('');
    const [read] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/terminal/${item.terminalId}/command/readParams`)),
      page.getByTestId('params-read').click(),
    ]);
    expect(read.status()).toBe(200);
    await page.waitForSelector('[data-testid=command-status][data-status=acked]', { timeout: 30_000 });
    await page.waitForFunction(
      () => (document.querySelector('[data-testid=param-heartbeatInterval]') as HTMLInputElement | null)?.value === '30',
    );
    // Fields the terminal reported and the form names are filled too (the simulator's APN).
    expect(await page.getByTestId('param-apn').inputValue()).toBe('cmnet');
    await screenshot(page, 'terminal-row-params-read');
    const after = (await api('GET', `/vehicle/terminal/${item.terminalId}/command`)) as {
      kind: string;
      status: string;
      response?: { params?: { id: number; value: unknown }[] };
    }[];
    const readBack = after.find((c) => c.kind === 'readParams');
    expect(readBack?.status).toBe('acked');
    expect(readBack?.response?.params).toContainEqual({ id: 1, type: 'u32', value: 30 });
    await context.close();
  });
});

describe('the geofence map editor', () => {
  it('draws a polygon fence on the map, refuses saving without one, saves the drawn geometry as the server stores it, and shows it on the monitor', async () => {
    const { page, context, external } = await suite.adminPage();
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/vehicle/fence/query')), page.goto('/fleet/fence')]);
    await page.getByTestId('entity-add').click();
    const form = page.locator('.ant-drawer-content, .ant-modal-content').filter({ has: page.getByTestId('fence-editor') });
    await form.waitFor();
    const item = (label: string) => form.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) });
    await item('围栏名称').locator('input').fill('浏览器画的围栏');
    await item('围栏类型').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '多边形' }).first().click();
    await page.waitForSelector('[data-testid=fence-editor][data-type=polygon]');

    // Nothing drawn: refused on the field, in the console's language, before any call.
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await item('围栏范围').locator('.ant-form-item-explain-error').getByText('请在地图上画出围栏范围').waitFor();

    // Four corners, then the first again to close the ring.
    await page.getByTestId('fence-draw').click();
    await page.getByTestId('fence-map').scrollIntoViewIfNeeded();
    const map = (await page.getByTestId('fence-map').boundingBox())!;
    const at = (fx: number, fy: number) => ({ x: map.x + map.width * fx, y: map.y + map.height * fy });
    for (const [fx, fy] of [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.7, 0.7],
      [0.3, 0.7],
      [0.3, 0.3],
    ]) {
      const p = at(fx, fy);
      await page.mouse.click(p.x, p.y);
    }
    await page.waitForSelector('[data-testid=fence-editor]:not([data-geometry=""])');
    const drawn = JSON.parse((await page.getByTestId('fence-editor').getAttribute('data-geometry'))!) as { points: number[][] };
    expect(drawn.points).toHaveLength(4);
    await screenshot(page, 'fence-drawn');
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/vehicle/fence') && r.request().method() === 'PUT'),
      form.getByRole('button', { name: /确\s*定/ }).click(),
    ]);
    expect(saved.status()).toBe(201);
    const body = (await saved.json()) as { id: number; fenceType: string; geometry: { points: number[][] } };
    expect(body.fenceType).toBe('polygon');
    expect(body.geometry).toEqual(drawn);
    const stored = (await api('GET', `/vehicle/fence/${body.id}`)) as { geometry: unknown };
    expect(stored.geometry).toEqual(drawn);

    // The open fence is drawn on the live monitor.
    await page.goto('/fleet/monitor');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=monitor-map-box]')?.getAttribute('data-fences')) >= 1);
    expect(external).toEqual([]);
    await context.close();
  });
});
