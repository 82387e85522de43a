import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { bootstrap } from '../server/bootstrap';
import { seed } from '../server/seed/seed';
import { ADMIN_PASSWORD, buildConsole, launchChromium, login, openPage } from '../tests/e2e/helpers/console';
import { fillVehicles } from './fixtures';
import { percentile, runAsScript, type BenchResult } from './lib';

/**
 * The live map with 10,000 vehicles in chromium (issue 15: "10,000 markers pan smoothly"): the
 * built console against the real app on PGlite with the demo seed plus 10,000 vehicles, each with
 * a latest position spread over the Yangtze delta and a mix of speeds, ACC and report ages (so every
 * status colour shows). It measures how long the map takes to show them all, then frames per second,
 * frame times and long tasks (over 50 ms, the browser's own PerformanceObserver) while a scripted
 * person pans and zooms. `npm run bench -- monitorMap` or `npx tsx bench/monitorMap.bench.ts`.
 */
const VEHICLES = Number(process.env.BENCH_MONITOR_VEHICLES ?? 10_000);
/** Rounds of: zoom in twice, pan four ways, zoom out twice. */
const ROUNDS = 3;

interface FrameStats {
  elapsedMs: number;
  frames: number[];
  longTasks: number[];
}

// The in-page scripts are strings: tsx's transform would wrap functions passed to the page in a
// helper (`__name`) that exists only in Node.
/** Starts counting animation frames and long tasks in the page. */
const startRecording = (page: Page) =>
  page.evaluate(`(() => {
    const b = (window.__bench = { frames: [], longTasks: [], t0: performance.now(), stop: false });
    new PerformanceObserver((list) => list.getEntries().forEach((e) => b.longTasks.push(e.duration))).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (now) => {
      b.frames.push(now - last);
      last = now;
      if (!b.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);

const stopRecording = (page: Page) =>
  page.evaluate(`(() => {
    const b = window.__bench;
    b.stop = true;
    return { elapsedMs: performance.now() - b.t0, frames: b.frames.slice(1), longTasks: b.longTasks };
  })()`) as Promise<FrameStats>;

/** A person's drag across the map, in small mouse steps as a hand moves. */
async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 20 });
  await page.mouse.up();
}

/** One wheel notch at the centre, then until Leaflet's zoom animation has ended. */
async function wheel(page: Page, at: { x: number; y: number }, deltaY: number) {
  await page.mouse.move(at.x, at.y);
  // Leaflet adds this class for the zoom animation (after its wheel debounce); the zoom is over once
  // it is gone, or never came within 30 frames (no zoom level left that way).
  const zoomed = page.evaluate(`new Promise((resolve) => {
    const box = document.querySelector('[data-testid=monitor-map-box] .leaflet-container');
    let frames = 0;
    let seen = false;
    const check = () => {
      const animating = !!box && box.classList.contains('leaflet-zoom-anim');
      seen = seen || animating;
      if ((seen && !animating) || (!seen && ++frames > 30)) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`);
  await page.mouse.wheel(0, deltaY);
  await zoomed;
}

export async function run(): Promise<BenchResult[]> {
  const consoleDir = await buildConsole();
  const server = await bootstrap({
    database: { dataDir: 'memory://' },
    seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
    jwtSecret: 'bench',
    // The live WebSocket's routes, without a gateway (port 0: no terminals).
    telematics: { config: { jt808Port: 0, host: '127.0.0.1', tokenTtlHours: 12 } },
    app: { logLevel: 'silent', consoleDir },
  });
  const browser = await launchChromium();
  try {
    const { database, app } = server;
    const db = database.db;
    const orgs = (await db.selectFrom('organisation').select('id').where('code', 'like', '%-%').execute()).map((o) => o.id);
    const fillMs = await fillVehicles(database, orgs, VEHICLES);
    // Positions in a 2° × 2.5° box (Shanghai, Hangzhou, Suzhou…); a third parked, some idle, some silent for hours.
    await sql`INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction, acc, mileage_km, fuel_l)
      SELECT id, 0, now() - CASE WHEN id % 7 = 0 THEN interval '3 hours' ELSE (id % 600) * interval '1 second' END,
             30 + ((id * 7919) % 2000) / 1000.0, 119.5 + ((id * 104729) % 2500) / 1000.0,
             CASE WHEN id % 3 = 0 THEN 0 ELSE id % 90 END, (id * 37) % 360, id % 5 <> 0, 10000 + id, 100
      FROM vehicle ON CONFLICT (vehicle_id) DO NOTHING`.execute(db);
    await sql`ANALYZE vehicle_state`.execute(db);
    const total = Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM vehicle_state WHERE latitude IS NOT NULL`.execute(db)).rows[0].n,
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const { page, context } = await openPage(browser, url, 'zh-CN');
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/dashboard');
    const t0 = Date.now();
    await page.goto('/fleet/monitor');
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=monitor-map-box]')?.getAttribute('data-markers')) >= n,
      total,
      { timeout: 120_000 },
    );
    await page.waitForSelector('[data-testid=monitor-map-box] .leaflet-marker-icon, [data-testid=monitor-map-box] canvas');
    const firstDrawMs = Date.now() - t0;

    const box = (await page.getByTestId('monitor-map').boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const reach = Math.min(box.width, box.height) / 3;
    await startRecording(page);
    for (let r = 0; r < ROUNDS; r++) {
      await wheel(page, centre, -100);
      await wheel(page, centre, -100);
      for (const [dx, dy] of [
        [reach, 0],
        [0, reach],
        [-reach, 0],
        [0, -reach],
      ])
        await drag(page, centre, dx, dy);
      await wheel(page, centre, 100);
      await wheel(page, centre, 100);
    }
    const stats = await stopRecording(page);
    await context.close();

    const frames = [...stats.frames].sort((a, b) => a - b);
    const longTasks = [...stats.longTasks].sort((a, b) => a - b);
    return [
      {
        name: `monitor map in chromium, ${total} vehicles with a position (pglite)`,
        fillMs,
        firstDrawMs,
        interactionMs: Math.round(stats.elapsedMs),
        fps: +((stats.frames.length * 1000) / stats.elapsedMs).toFixed(1),
        frameP50Ms: +percentile(frames, 50).toFixed(1),
        frameP95Ms: +percentile(frames, 95).toFixed(1),
        frameMaxMs: +(frames[frames.length - 1] ?? 0).toFixed(1),
        longTasks: longTasks.length,
        longTaskTotalMs: Math.round(longTasks.reduce((s, d) => s + d, 0)),
        longTaskMaxMs: Math.round(longTasks[longTasks.length - 1] ?? 0),
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) runAsScript(run);
