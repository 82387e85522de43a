import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { DEMO_PASSWORD } from '../../mock/runtime/server';
import { launchChromium, login, openPage, screenshot } from '../e2e/helpers/console';
import { freePort } from '../helpers/serverProcess';

const root = path.resolve(__dirname, '../..');

/**
 * `npm run dev:mock` for real: Umi's dev server loads mock/api.generated.ts (and not the runtime
 * as mock files) and answers the console's calls with no API server running: the server's app
 * over an in-memory database, inside the dev server's process.
 */
/** Resolves once the dev server serves the console's login page and every script and style it names. */
async function consoleServed(base: string): Promise<void> {
  const html = await (await fetch(`${base}/login`)).text();
  for (const [, asset] of html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)) {
    const r = await fetch(`${base}${asset}`);
    expect(r.status).toBe(200);
    await r.arrayBuffer();
  }
}

describe('npm run dev:mock', () => {
  let child: ChildProcess | undefined;
  let out = '';
  let port = 0;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      process.kill(-child.pid, 'SIGTERM'); // the dev server and the workers it forked
      await exited;
    }
  });

  it('serves the vehicle list, the system pages, uploads and downloads from the mock', async () => {
    port = await freePort();
    child = spawn(path.join(root, 'node_modules/.bin/max'), ['dev'], {
      cwd: root,
      // The same switch as the npm script; the API proxy points at a port nothing listens on.
      env: { ...process.env, MOCK: 'generated', PORT: String(port), API_URL: 'http://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const base = `http://127.0.0.1:${port}/api`;
    const json = { 'content-type': 'application/json' };
    // Until its first build is done, Umi answers every request with its loading page.
    let token: string | undefined;
    for (const deadline = Date.now() + 150_000; !token;) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`max dev did not serve the mock:\n${out}`);
      const r = await fetch(`${base}/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ loginName: 'admin', password: DEMO_PASSWORD }),
      }).catch(() => null);
      if (r?.headers.get('content-type')?.includes('json')) token = (await r.json()).object.token;
      else await new Promise((res) => setTimeout(res, 1000));
    }
    const page = await fetch(`${base}/vehicle/vehicle/query`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
      body: JSON.stringify({ criteria: { keyword: '粤B' }, order: { property: 'licence', direction: 'DESC' }, pageIndex: 1, pageSize: 5 }),
    });
    expect(page.status).toBe(200);
    const body = await page.json();
    expect(body).toMatchObject({ total: 8, totalExact: true, pageIndex: 1, pageSize: 5 });
    expect(body.data.map((v: { licence: string }) => v.licence)).toEqual(
      [...body.data.map((v: { licence: string }) => v.licence)].sort().reverse(),
    );
    expect(body.data[0]).toMatchObject({ orgName: '深圳车队', brandName: expect.any(String), terminalNo: expect.stringMatching(/^8080/) });
    const bad = await fetch(`${base}/vehicle/vehicle/query`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
      body: JSON.stringify({ criteria: { remark: 'x' } }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Cannot search by "remark"');
    // The system pages' routes, which the mock once lacked, answer as the server's do.
    const auth = { ...json, authorization: `Bearer ${token}` };
    const orgs = await fetch(`${base}/vehicle/org/query`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ pageIndex: 1, pageSize: 50 }),
    });
    expect(orgs.status).toBe(200);
    expect((await orgs.json()).data.map((o: { code: string }) => o.code)).toEqual(expect.arrayContaining(['FS', 'HD', 'HN']));
    const audit = await fetch(`${base}/vehicle/audit/query`, {
      method: 'POST',
      headers: { ...auth, 'x-authority': 'log-view' },
      body: JSON.stringify({ pageIndex: 1, pageSize: 5 }),
    });
    expect(audit.status).toBe(200);
    // An upload goes through Umi's multipart parsing and on to the server's xlsx check; a download comes back as bytes.
    const form = new FormData();
    form.append('file', new Blob(['a,b'], { type: 'text/plain' }), '车辆.txt');
    const upload = await fetch(`${base}/vehicle/vehicle/importValidate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(400);
    expect((await upload.json()).code).toBe('sheet.notXlsx');
    const template = await fetch(`${base}/vehicle/vehicle/template`, { headers: { authorization: `Bearer ${token}` } });
    expect(template.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(
      Buffer.from(await template.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK'); // a zip: the xlsx container
  }, 180_000);

  it('renders every menu page of the console for the demo admin without an error toast or a failed call', async () => {
    try {
      expect(port).toBeGreaterThan(0); // the dev server of the test above
      const base = `http://127.0.0.1:${port}`;
      // Webpack rebuilds whenever a watched file changes (Umi rewrites src/.umi as it starts), and
      // holds every request until the build is done: fetch, unlike a page load, waits that out.
      await consoleServed(base);
      browser = await launchChromium();
      const { page } = await openPage(browser, base);
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/api/') && r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${r.url()}`);
      });
      await login(page, 'admin', DEMO_PASSWORD);
      await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
      // The admin's menu, asked of the mock directly: every page key the shell can open.
      const menus = await (
        await fetch(`${base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ loginName: 'admin', password: DEMO_PASSWORD }),
        })
      )
        .json()
        .then((b) => fetch(`${base}/api/passport/resource/authorized/obd-web`, { headers: { authorization: `Bearer ${b.object.token}` } }))
        .then((r) => r.json());
      type Item = { kind: string; path: string | null; url: string | null; children: Item[] };
      const pages = (items: Item[]): string[] =>
        items.flatMap((r) => [...(r.kind === 'Menu' && r.url && r.path ? [r.path] : []), ...pages(r.children)]);
      const paths = pages(menus);
      expect(paths.length).toBeGreaterThan(20);
      const toasts: string[] = [];
      for (const p of paths) {
        await page.goto(p);
        await page.waitForLoadState('networkidle');
        for (const t of await page
          .locator('.ant-message-error, .ant-notification-notice-error, .ant-result-error, .ant-result-500, .ant-result-403')
          .allInnerTexts())
          toasts.push(`${p}: ${t}`);
      }
      await page.goto('/system/org');
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'mock-system-org');
      expect({ failed, toasts }).toEqual({ failed: [], toasts: [] });
    } catch (e) {
      // What the dev server said (its builds and their times) tells a slow build from a broken page.
      throw new Error(`${(e as Error).message}\n--- max dev said:\n${out.slice(-4000)}`);
    }
  }, 400_000);
});
