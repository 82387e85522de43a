import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from './console';
import { watch } from './pageChecks';

/**
 * The browser tests' failure watch: a call the page aborts itself is a failure; a call still under
 * way when the user opens the next page (the browser drops it) is not. A page whose calls never
 * answer holds both.
 */
it('counts a call the page aborts, not one the browser drops as the next page loads', async () => {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/')) return; // never answers
    res.setHeader('content-type', 'text/html');
    res.end(
      req.url === '/next'
        ? '<p>next</p>'
        : `<script>fetch('/api/left'); const c = new AbortController(); fetch('/api/aborted', { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 50);</script>`,
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
    await page.goto(`${base}/next`);
    await left;
    expect(problems).toEqual([`GET ${base}/api/aborted failed: net::ERR_ABORTED`]);
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
});
