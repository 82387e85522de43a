import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { bootstrap } from '../server/bootstrap';
import { seed } from '../server/seed/seed';
import { ADMIN_PASSWORD, buildConsole, launchChromium, openPage } from '../tests/e2e/helpers/console';
import { consoleAt } from './consoleAt';
import { percentile, runAsScript, type BenchResult } from './lib';

/**
 * The console's first load in chromium (issue 31; DESIGN.md: login form < 1 s cold on localhost,
 * entry script ≤ 150 KB gzip, dashboard < 1.5 s after login). Each sample is a fresh browser
 * profile (an empty cache) against the real app on PGlite with the demo seed, serving the build: the time from navigation to the
 * login form's password field, then from the click on 登录 to the dashboard's figures (the vehicle
 * counts and this month's ledger) and to its two charts settled (drawn, or empty: the demo seed
 * has no history). Times are the page's own clock
 * (`performance.now()`, marked by a MutationObserver as the elements appear), so the bench's
 * round trips add nothing.
 *
 * `BENCH_CONSOLE_BASE=<git ref>` builds that commit's console too (consoleAt.ts) and measures both
 * with the same server, their samples alternating so the machine's load falls on both alike.
 * `BENCH_CONSOLE_SAMPLES` (default 5) per build. `npm run bench -- consoleLoad`.
 */
const SAMPLES = Number(process.env.BENCH_CONSOLE_SAMPLES ?? 5);

interface Marks {
  form?: number;
  submit?: number;
  figures?: number;
  charts?: number;
}

/** The page's window with the marker's record (an expando of its own, hence the casts below). */
type Marked = { __load?: Marks };

// A string, not a function: tsx would wrap a function handed to the page in a helper only Node has.
const MARKER = `(() => {
  const marks = (window.__load = {});
  const checks = {
    form: () => !!document.querySelector('#password'),
    figures: () => {
      const total = document.querySelector('[data-testid=dashboard-count-total-value]');
      return !!total && /\\d/.test(total.textContent || '') && !!document.querySelector('[data-testid=dashboard-ledger-month] .ant-statistic-content-value');
    },
    // Drawn, or the empty state once its data has come (the demo seed has no history to chart).
    charts: () => ['dashboard-distribution', 'dashboard-top7'].every((id) => !!document.querySelector('[data-testid=' + id + '] canvas, [data-testid=' + id + '-empty]')),
  };
  const check = () => {
    for (const k of Object.keys(checks)) if (marks[k] === undefined && checks[k]()) marks[k] = performance.now();
  };
  document.addEventListener('click', (e) => {
    if (marks.submit === undefined && e.target instanceof Element && e.target.closest('button[type=submit]')) marks.submit = performance.now();
  }, true);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

interface Sample {
  formMs: number;
  figuresMs: number;
  chartsMs: number;
  /** gzip bytes of the scripts the page had fetched when the form showed. */
  scriptGzipBeforeForm: number;
}

const gzipOf = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

async function sample(browser: Browser, url: string, consoleDir: string): Promise<Sample> {
  const { page, context } = await openPage(browser, url, 'zh-CN');
  try {
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.endsWith('.js')) scripts.push(new URL(r.url()).pathname);
    });
    await page.addInitScript(MARKER);
    await page.goto('/login', { waitUntil: 'commit' });
    // Predicates as functions: a string one would be eval'd in the page, which its CSP refuses.
    await page.waitForFunction(() => (window as unknown as Marked).__load?.form !== undefined);
    const beforeForm = [...scripts];
    await page.locator('#loginName').fill('admin');
    await page.locator('#password').fill(ADMIN_PASSWORD);
    await page.locator('button[type=submit]').click();
    await page.waitForFunction(
      () => {
        const marks = (window as unknown as Marked).__load;
        return marks?.figures !== undefined && marks.charts !== undefined;
      },
      undefined,
      { timeout: 60_000 },
    );
    const m = (await page.evaluate('window.__load')) as Required<Marks>;
    return {
      formMs: m.form,
      figuresMs: m.figures - m.submit,
      chartsMs: m.charts - m.submit,
      scriptGzipBeforeForm: beforeForm.reduce((s, p) => s + gzipOf(path.join(consoleDir, p)), 0),
    };
  } finally {
    await context.close();
  }
}

/** The entry script (`umi.*.js`) and every script index.html loads before the page runs. */
function entrySizes(consoleDir: string) {
  const html = fs.readFileSync(path.join(consoleDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script src="\/([^"]+\.js)"/g)].map((m) => m[1]);
  const entry = scripts.find((s) => /^umi\.[0-9a-f]+\.js$/.test(s));
  if (!entry) throw new Error(`no entry script in ${consoleDir}/index.html`);
  return {
    entryRawKB: +(fs.statSync(path.join(consoleDir, entry)).size / 1024).toFixed(1),
    entryGzipKB: +(gzipOf(path.join(consoleDir, entry)) / 1024).toFixed(1),
    htmlScriptsGzipKB: +(scripts.reduce((s, f) => s + gzipOf(path.join(consoleDir, f)), 0) / 1024).toFixed(1),
  };
}

const median = (xs: number[]) =>
  +percentile(
    [...xs].sort((a, b) => a - b),
    50,
  ).toFixed(0);

export async function run(): Promise<BenchResult[]> {
  const builds: { name: string; dir: string }[] = [{ name: 'this checkout', dir: await buildConsole() }];
  const base = process.env.BENCH_CONSOLE_BASE;
  if (base) builds.push({ name: base, dir: await consoleAt(base) });
  const servers: Awaited<ReturnType<typeof bootstrap>>[] = [];
  const browser = await launchChromium();
  try {
    // In this process, one after the other: the app's modules load once for both.
    for (const b of builds)
      servers.push(
        await bootstrap({
          database: { dataDir: 'memory://' },
          seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
          jwtSecret: 'bench',
          // The live WebSocket's routes the dashboard opens, without a gateway (port 0: no terminals).
          telematics: { config: { jt808Port: 0, host: '127.0.0.1', tokenTtlHours: 12 } },
          app: { logLevel: 'silent', consoleDir: b.dir },
        }),
      );
    const urls: string[] = [];
    for (const s of servers) {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      urls.push(`http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`);
    }
    const samples: Sample[][] = builds.map(() => []);
    // A first visit of each server's pages, not counted: the server's own first answers (its
    // statement cache, the demo's first derivation) are not the console's load.
    for (let i = 0; i < builds.length; i++) await sample(browser, urls[i], builds[i].dir);
    for (let n = 0; n < SAMPLES; n++) {
      // Alternating, the order rotating, so neither build always runs on the busier moment.
      for (let k = 0; k < builds.length; k++) {
        const i = (n + k) % builds.length;
        samples[i].push(await sample(browser, urls[i], builds[i].dir));
      }
    }
    const load = os.loadavg().map((l) => +l.toFixed(1));
    return builds.map((b, i) => {
      const s = samples[i];
      return {
        name: `console first load in chromium (${b.name})`,
        samples: s.length,
        loginFormMs: median(s.map((x) => x.formMs)),
        loginFormRangeMs: [Math.round(Math.min(...s.map((x) => x.formMs))), Math.round(Math.max(...s.map((x) => x.formMs)))],
        dashboardFiguresMs: median(s.map((x) => x.figuresMs)),
        dashboardChartsMs: median(s.map((x) => x.chartsMs)),
        scriptGzipBeforeFormKB: +(median(s.map((x) => x.scriptGzipBeforeForm)) / 1024).toFixed(1),
        ...entrySizes(b.dir),
        loadAverage: load,
        date: new Date().toISOString(),
      };
    });
  } finally {
    await browser.close();
    for (const s of servers) await s.close();
  }
}

if (require.main === module) runAsScript(run);
