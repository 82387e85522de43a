import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { precompress } from '../../../server/platform/http/precompress';
import { freePort, http, startServerProcess, type ServerProcess } from '../../helpers/serverProcess';
import { makeOnce, sourcesDigest } from '../../helpers/madeOnce';
import { copySeededDataDir } from '../../helpers/seededTemplate';

export const ROOT = path.resolve(__dirname, '../../..');
export const SCREENSHOTS = path.join(ROOT, 'screenshots');
export const ADMIN_PASSWORD = 'Admin2026x';
/** Debian's old headless shell when installed (no browser UI to run: about a quarter less CPU a suite), else its Chromium. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => fs.existsSync(p)) ||
  '/usr/bin/chromium';

/** Files whose content decides the console build. */
const BUILD_INPUTS = ['src', 'schemas', 'public', '.umirc.ts', 'package-lock.json'];

/**
 * Builds the console (about a minute) into a temp dir named by a hash of its sources, so every
 * browser test file of a run — and of later runs with the same sources — shares one build. A lock
 * directory keeps two jest workers from building at once.
 */
export async function buildConsole(): Promise<string> {
  // Umi's own generated folders change on every build and decide nothing.
  const digest = sourcesDigest(ROOT, BUILD_INPUTS, (name) => !name.startsWith('.umi'));
  const out = path.join(os.tmpdir(), `fs-console-${digest.slice(0, 16)}`);
  const done = path.join(out, '.built');
  // The lock beside the build, which starts by removing what a killed run left in its folder.
  await makeOnce({ done, lock: `${out}.lock` }, 600_000, async () => {
    fs.rmSync(out, { recursive: true, force: true });
    const r = spawnSync(path.join(ROOT, 'node_modules/.bin/max'), ['build'], {
      cwd: ROOT,
      env: { ...process.env, CONSOLE_OUTPUT: out },
      encoding: 'utf8',
    });
    if (r.status !== 0 || !fs.existsSync(path.join(out, 'index.html'))) throw new Error(`console build failed:\n${r.stdout}\n${r.stderr}`);
    // Compressed once here rather than by each suite's server at its start.
    await precompress(out);
    fs.writeFileSync(done, '');
  });
  return out;
}

/**
 * `npm start` on a fresh embedded database with the demo seed, serving the built console; `env` adds to its environment (e.g. a gateway port).
 * Maps draw without tiles (MAP_TILE_URL=off), so no test asks OpenStreetMap for anything.
 */
export async function startConsoleServer(
  consoleDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-e2e-data-'));
  // The database as the first `npm start` with SEED=demo leaves it, copied (its initdb, migrations and
  // seed take seconds); a suite that seeds otherwise starts empty.
  if (env.SEED === undefined && env.ADMIN_PASSWORD === undefined && env.DATABASE_URL === undefined)
    await copySeededDataDir(dataDir, { adminPassword: ADMIN_PASSWORD, demoAlarms: true });
  const srv = await startServerProcess(
    ROOT,
    { DATA_DIR: dataDir, ADMIN_PASSWORD, SEED: 'demo', CONSOLE_DIR: consoleDir, MAP_TILE_URL: 'off', ...env },
    [],
  );
  return { ...srv, dataDir };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser profile in a language; every request that leaves the test server fails the test. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  locale = 'zh-CN',
): Promise<{ context: BrowserContext; page: Page; external: string[] }> {
  const context = await browser.newContext({ baseURL, locale, viewport: { width: 1280, height: 760 } });
  const external: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(baseURL) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    external.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  return { context, page, external };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** gzip size of every script file a page loaded from the build. */
export function gzipSizeOf(consoleDir: string, urls: readonly string[]): number {
  return urls.reduce((sum, u) => sum + zlib.gzipSync(fs.readFileSync(path.join(consoleDir, new URL(u).pathname))).length, 0);
}

/** Everything the page keeps in local and session storage, as one string. */
export const storageDump = (page: Page): Promise<string> =>
  page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));

export async function login(page: Page, loginName: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('#loginName').fill(loginName);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
}

export type OpenedPage = Awaited<ReturnType<typeof openPage>>;

/** Every node of a tree (the resource tree of an API answer), parents before their children. */
export const flatTree = <T extends { children?: T[] }>(tree: T[]): T[] => tree.flatMap((r) => [r, ...flatTree(r.children ?? [])]);

/** What the browser tests of one file share; each part is there once the file's beforeAll has run. */
export interface ConsoleSuite {
  /** The console build the server serves. */
  readonly consoleDir: string;
  readonly server: ServerProcess & { dataDir: string };
  readonly browser: Browser;
  /** The admin's token for obd-web. */
  readonly adminToken: string;
  /** `/api` + path as the admin (or as `token`); an answer of 300 or above fails the test. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape
  /** Signs in to obd-web through the API and answers the token. */
  tokenOf(loginName: string, password: string): Promise<string>;
  /** A fresh browser profile on the suite's server (see openPage). */
  freshPage(locale?: string): Promise<OpenedPage>;
  /** A fresh browser profile signed in as admin, on the dashboard; `prepare` runs on the page before it signs in (a viewport, a listener). */
  adminPage(locale?: string, prepare?: (page: Page) => unknown): Promise<OpenedPage>;
}

/**
 * The demo fleet a suite's server runs: `historyDays` of history uploaded through the gateway and
 * derived first, then `terminals` simulated terminals reporting live every 10 s.
 */
export interface DemoFleet {
  terminals: number;
  historyDays: number;
}

/** Waits for the server to log `line` (a state only the server knows, e.g. its demo fleet going live). */
async function untilLogged(server: ServerProcess, line: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!server.output().includes(line)) {
    if (Date.now() > deadline) throw new Error(`the server did not log "${line}":\n${server.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * One console build, one server on a fresh demo database and one browser for the tests of a file:
 * started in beforeAll, stopped in afterAll (its database folder removed). `env` adds to the server's
 * environment; `demoFleet` runs the demo fleet on a free gateway port, and the tests start once its
 * history is in and derived and it reports live (so a command reaches a terminal that answers at once).
 */
export function useConsoleSuite(options: { env?: () => Promise<Record<string, string>>; demoFleet?: DemoFleet } = {}): ConsoleSuite {
  let consoleDir: string | undefined;
  let server: (ServerProcess & { dataDir: string }) | undefined;
  let browser: Browser | undefined;
  let adminToken: string | undefined;
  const ready = <T>(part: T | undefined, name: string): T => {
    if (part === undefined) throw new Error(`the console suite's ${name} is there once beforeAll has run`);
    return part;
  };
  const tokenOf = async (loginName: string, password: string) =>
    (await http(ready(server, 'server').url + '/api/login', 'POST', { loginName, password, application: 'obd-web' })).json.object
      .token as string;
  const freshPage = (locale = 'zh-CN') => openPage(ready(browser, 'browser'), ready(server, 'server').url, locale);

  beforeAll(async () => {
    consoleDir = await buildConsole();
    const fleet = options.demoFleet;
    const fleetEnv: Record<string, string> = fleet
      ? {
          JT808_PORT: String(await freePort()),
          JT1078_MEDIA_PORT: String(await freePort()),
          SIMULATE: String(fleet.terminals),
          DEMO_HISTORY_DAYS: String(fleet.historyDays),
          LOG_LEVEL: 'info',
        }
      : {};
    server = await startConsoleServer(consoleDir, { ...fleetEnv, ...((await options.env?.()) ?? {}) });
    browser = await launchChromium();
    adminToken = await tokenOf('admin', ADMIN_PASSWORD);
    if (fleet) await untilLogged(server, 'demo fleet reporting', 300_000);
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  return {
    get consoleDir() {
      return ready(consoleDir, 'consoleDir');
    },
    get server() {
      return ready(server, 'server');
    },
    get browser() {
      return ready(browser, 'browser');
    },
    get adminToken() {
      return ready(adminToken, 'adminToken');
    },
    async api(method, p, body, token) {
      const r = await http(ready(server, 'server').url + '/api' + p, method, body, token ?? ready(adminToken, 'adminToken'));
      if (r.status >= 300) throw new Error(`${method} ${p} → ${r.status} ${r.text}`);
      return r.json;
    },
    tokenOf,
    freshPage,
    async adminPage(locale = 'zh-CN', prepare) {
      const opened = await freshPage(locale);
      await prepare?.(opened.page);
      await login(opened.page, 'admin', ADMIN_PASSWORD);
      await opened.page.waitForURL('**/dashboard');
      return opened;
    },
  };
}

/** An entity page's table and its data rows (not the placeholder or measure rows). */
export const entityTable = (page: Page, entity: string) => page.getByTestId(`entity-page-${entity}`);
export const entityRows = (page: Page, entity: string) => entityTable(page, entity).locator('.ant-table-tbody tr.ant-table-row');

/**
 * Runs an action, waits for the list query it causes and for the table to show its answer (while
 * loading, the table is masked and takes no clicks). The answer is awaited longer than an action
 * may take, so an action that cannot happen (a control covered, a field not found) fails with its
 * own reason rather than as a missing answer.
 */
export async function listReloading(
  page: Page,
  entity: string,
  action: () => Promise<unknown>,
): Promise<{ total: number; data: Array<Record<string, unknown>> }> {
  const answered = page.waitForResponse((r) => r.url().endsWith(`/api/vehicle/${entity}/query`) && r.request().method() === 'POST', {
    timeout: 60_000,
  });
  // Kept from rejecting unheard while the action runs; awaited just below.
  answered.catch(() => undefined);
  await action();
  const response = await answered;
  if (response.status() !== 200) throw new Error(`${entity} list answered ${response.status()}`);
  await entityTable(page, entity).locator('.ant-table-wrapper .ant-spin-spinning').waitFor({ state: 'detached' });
  return response.json();
}
