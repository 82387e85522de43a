import { createRequire } from 'node:module';
import { entities } from '../../schemas/generated/registry';
import { mockRoutes } from '../../mock/api.generated';
import { createMockServer, DEMO_PASSWORD } from '../../mock/runtime/server';
import type { UmiResponse } from '../../mock/runtime/umi';
import { demoFixtures } from '../../server/seed/fixtures';
import { MENUS } from '../../server/seed/menu';

// Umi's mock middleware matches keys with this path-to-regexp (1.x), first match in key order.
const umiRequire = createRequire(require.resolve('@umijs/preset-umi/dist/features/mock/createMockMiddleware.js'));
const pathToRegexp = umiRequire('path-to-regexp') as (p: string, keys: Array<{ name: string | number }>) => RegExp;

export interface MockClient {
  call(token: string | null, method: string, url: string, body?: unknown, lang?: string): { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape
  login(): string;
}

/** The generated route table over a fresh mock state, driven the way Umi's dev server drives it. */
export function mockClient(): MockClient {
  const routes = Object.entries(mockRoutes(createMockServer({ entities, fixtures: demoFixtures, menus: MENUS }))).map(([key, handler]) => {
    const [method, pattern] = key.split(/\s+/);
    const keys: Array<{ name: string | number }> = [];
    return { method, re: pathToRegexp(pattern, keys), keys, handler };
  });
  const call: MockClient['call'] = (token, method, url, body, lang) => {
    const u = new URL(url, 'http://mock');
    for (const r of routes) {
      const m = r.method === method ? r.re.exec(u.pathname) : null;
      if (!m) continue;
      const params = Object.fromEntries(r.keys.map((k, i) => [String(k.name), decodeURIComponent(m[i + 1])]));
      let status = 0;
      let json: unknown;
      const res: UmiResponse = {
        status: (s) => ((status = s), res),
        json: (b) => (json = JSON.parse(JSON.stringify(b))),
        end: () => undefined,
      };
      const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(lang ? { 'accept-language': lang } : {}) };
      // Umi parses JSON bodies on every method but GET (body-parser gives {} for an empty one).
      r.handler({ params, query: Object.fromEntries(u.searchParams), body: method === 'GET' ? undefined : (body ?? {}), headers }, res);
      return { status, body: json };
    }
    throw new Error(`no mock route for ${method} ${url}`);
  };
  return {
    call,
    login: () => call(null, 'POST', '/api/login', { loginName: 'admin', password: DEMO_PASSWORD }).body.object.token,
  };
}

