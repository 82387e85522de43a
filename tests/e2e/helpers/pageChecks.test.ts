import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from './console';
import { watch } from './pageChecks';

/**
 * The browser tests' failure watch: a call the page aborts itself is a failure; a call still under
 * way when the user opens the next page (the browser drops it) is not, nor one the old page sends
 * while the next one is loading. A page whose calls never answer holds all three; the next page
 * takes a moment to answer, and the old page keeps calling another server (its own connections
 * would hold up the next page's load) meanwhile.
 */
it('counts a call the page aborts, not one the browser drops as the next page loads', async () => {
  const never = http.createServer(() => {});
  await new Promise<void>((resolve) => never.listen(0, '127.0.0.1', resolve));
  const polled = `http://127.0.0.1:${(never.address() as AddressInfo).port}/api/poll`;
  let nextAsked = false;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/')) return; // never answers
    res.setHeader('content-type', 'text/html');
    if (req.url === '/next') {
      nextAsked = true;
      setTimeout(() => res.end('<p>next</p>'), 400);
      return;
    }
    res.end(
      `<script>fetch('/api/left'); const c = new AbortController(); fetch('/api/aborted', { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 50);
      setInterval(() => fetch('${polled}', { mode: 'no-cors' }).catch(() => {}), 40);</script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems = watch(page);
    const aborted = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/aborted'));
    await page.goto(`${base}/first`);
    await aborted;
    const left = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/left'));
    // A poll the old page sends once the next page was asked for, before it arrives.
    const sentLeaving = page.waitForEvent('request', (r) => r.url() === polled && nextAsked);
    await page.goto(`${base}/next`);
    await left;
    await sentLeaving;
    expect(problems).toEqual([`GET ${base}/api/aborted failed: net::ERR_ABORTED`]);
  } finally {
    await browser.close();
    for (const s of [server, never]) {
      s.closeAllConnections();
      s.close();
    }
  }
});
