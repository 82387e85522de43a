/**
 * `npm run docs:screenshots`: the images of README.md and docs/, taken from the real console.
 *
 * Builds the console as the browser tests do (one build per source hash, shared with them), starts
 * `npm start` on a fresh demo database whose demo fleet uploads a week of history through the
 * gateway and then reports live, signs in as admin and saves each page at 1440 × 900 as a JPEG into
 * docs/images/. Nothing in docs/images is drawn by hand: run this again after a page changes.
 *
 * `DOCS_SHOTS=dashboard,monitor` takes only those shots.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ROOT, buildConsole, launchChromium, login, startConsoleServer } from '../tests/e2e/helpers/console';
import { freePort, http } from '../tests/helpers/serverProcess';

const OUT = path.join(ROOT, 'docs/images');
const VIEWPORT = { width: 1440, height: 900 };
/** JPEG at this quality keeps a page at 80–200 KB; the text stays legible. */
const QUALITY = 70;

interface Shot {
  name: string;
  /** The console path; `{vehicle}` is the first demo vehicle's id. */
  path: string;
  /** Visible once the page shows its data. */
  ready?: string;
  /** Run after the page settled (open a dialog, pick a tab). */
  act?: (page: Page) => Promise<void>;
  /** Shot without signing in. */
  public?: boolean;
}

const SHOTS: Shot[] = [
  { name: 'login', path: '/login', public: true, ready: '#loginName' },
  { name: 'dashboard', path: '/dashboard', ready: '[data-testid=dashboard-top7] canvas' },
  {
    name: 'monitor',
    path: '/fleet/monitor',
    ready: '[data-testid=monitor-page][data-live=live]',
    // A moving vehicle's card open, as a dispatcher sees it.
    act: async (page) => {
      await page.locator('[data-testid=monitor-row]:not([data-lat=""])').first().click();
      await page.getByTestId('vehicle-card').waitFor();
    },
  },
  { name: 'vehicle-detail', path: '/vehicleDetail/vehicleDetail/{vehicle}' },
  { name: 'playback', path: '/vehicleDetail/vehicleDetail/{vehicle}?tab=track', ready: '.leaflet-container' },
  { name: 'alarm-ai', path: '/alarm/ai' },
  { name: 'alarm-fence', path: '/alarm/fence' },
  { name: 'alarm-obd', path: '/alarm/obd' },
  { name: 'statistics-daily', path: '/statistics/daily', ready: '[data-testid=daily-totals]' },
  { name: 'statistics-fuel', path: '/statistics/fuel', ready: '[data-testid=fuel-chart] canvas' },
  { name: 'statistics-cost', path: '/statistics/cost' },
  { name: 'statistics-health', path: '/statistics/health' },
  { name: 'statistics-safety', path: '/statistics/safety' },
  { name: 'maintenance-status', path: '/maintenance/status', ready: '[data-testid=maintenance-usage]' },
  { name: 'team-break-rules', path: '/team/breakRules' },
  { name: 'team-order-schedule', path: '/team/orderSchedule' },
  { name: 'fleet-vehicles', path: '/fleet/vehicleList', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'fleet-terminals', path: '/fleet/terminal', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'fleet-fences', path: '/fleet/fence', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'fleet-strategy', path: '/fleet/strategy', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'system-org', path: '/system/org', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'system-role', path: '/system/role', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'system-account', path: '/system/account', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'system-log', path: '/system/log', ready: '.ant-table-tbody tr.ant-table-row' },
  { name: 'tools-labels', path: '/tools/labels' },
  { name: 'tools-jt808', path: '/tools/jt808' },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the page has had no HTTP request in flight for `quietMs` and shows no spinner or skeleton. */
async function settle(page: Page, inFlight: () => number, quietMs = 1500, maxMs = 60_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const busy = inFlight() > 0 || (await page.locator('.ant-spin-spinning, .ant-skeleton-active').count()) > 0;
    if (busy) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const only = process.env.DOCS_SHOTS?.split(',').map((s) => s.trim());
  const shots = only ? SHOTS.filter((s) => only.includes(s.name)) : SHOTS;
  console.log('building the console (skipped when this source was built before)…');
  const consoleDir = await buildConsole();
  const fleet = {
    JT808_PORT: String(await freePort()),
    JT1078_MEDIA_PORT: String(await freePort()),
    SIMULATE: '8',
    DEMO_HISTORY_DAYS: '7',
    LOG_LEVEL: 'info',
  };
  const server = await startConsoleServer(consoleDir, fleet);
  const browser = await launchChromium();
  try {
    console.log('waiting for the demo fleet to upload its history and report live…');
    const deadline = Date.now() + 900_000;
    while (!server.output().includes('demo fleet reporting')) {
      if (Date.now() > deadline) throw new Error(`the demo fleet did not go live:\n${server.output().slice(-2000)}`);
      await sleep(1000);
    }
    const signIn = await http(server.url + '/api/login', 'POST', { loginName: 'admin', password: ADMIN_PASSWORD });
    const token = signIn.json.object.token as string;
    const firstByLicence = { pageIndex: 1, pageSize: 1, order: { property: 'licence', direction: 'asc' } };
    const vehicles = await http(server.url + '/api/vehicle/vehicle/query', 'POST', firstByLicence, token);
    const vehicleId = String(vehicles.json.data[0].id);

    const context = await browser.newContext({ baseURL: server.url, locale: 'zh-CN', viewport: VIEWPORT });
    const page = await context.newPage();
    let pending = 0;
    page.on('request', () => pending++);
    page.on('requestfinished', () => pending--);
    page.on('requestfailed', () => pending--);
    fs.mkdirSync(OUT, { recursive: true });

    for (const shot of shots.filter((s) => s.public)) await take(page, shot, vehicleId, () => pending);
    await login(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/dashboard');
    for (const shot of shots.filter((s) => !s.public)) await take(page, shot, vehicleId, () => pending);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

async function take(page: Page, shot: Shot, vehicleId: string, inFlight: () => number): Promise<void> {
  await page.goto(shot.path.replace('{vehicle}', vehicleId));
  if (shot.ready) await page.locator(shot.ready).first().waitFor({ timeout: 60_000 });
  await settle(page, inFlight);
  await shot.act?.(page);
  // The pointer off any tooltip, then one more quiet moment for charts' entry animations.
  await page.mouse.move(0, 0);
  await sleep(800);
  const file = path.join(OUT, `${shot.name}.jpg`);
  await page.screenshot({ path: file, type: 'jpeg', quality: QUALITY });
  console.log(`${path.relative(ROOT, file)}  ${Math.round(fs.statSync(file).size / 1024)} KB`);
}

main().catch((e: Error) => {
  console.error(e);
  process.exit(1);
});
