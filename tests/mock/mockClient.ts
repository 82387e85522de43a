import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { entities } from '../../schemas/generated/registry';
import { mockRoutes } from '../../mock/api.generated';
import { createMockServer, DEMO_PASSWORD, type MockServer } from '../../mock/runtime/server';
import { demoFixtures } from '../../server/seed/fixtures';

// Umi's own dev-server pieces: its Express and the mock middleware that runs a mock file's routes.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- compiled CommonJS without an ES entry
const express = require('@umijs/bundler-utils/compiled/express') as () => http.RequestListener & { use(mw: unknown): void };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { createMockMiddleware } = require('@umijs/preset-umi/dist/features/mock/createMockMiddleware.js') as {
  createMockMiddleware(opts: { context: { mockData: Record<string, { method: string; path: string; handler: unknown }> } }): unknown;
};

export interface Answer {
  status: number;
  /** Parsed JSON, text, or the bytes of anything else (xlsx, xml). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape
  headers: Headers;
}

export interface MockClient {
  /** One call; `body` is sent as JSON, or as multipart when it is FormData. */
  call: Call;
  login(loginName?: string, password?: string): Promise<string>;
  /** The mock file's route table, as Umi's middleware sees it. */
  routes: string[];
  mock: MockServer;
  close(): Promise<void>;
}

/** Reads an answer as the console's request layer would: JSON parsed, xlsx and other files as bytes. */
export async function readAnswer(r: Response): Promise<Answer> {
  const type = r.headers.get('content-type') ?? '';
  const raw = Buffer.from(await r.arrayBuffer());
  const body = !raw.length
    ? undefined
    : type.includes('json')
      ? JSON.parse(raw.toString('utf8'))
      : type.startsWith('text/')
        ? raw.toString('utf8')
        : raw;
  return { status: r.status, body, headers: r.headers };
}

export type Call = (
  token: string | null,
  method: string,
  url: string,
  body?: unknown,
  lang?: string,
  headers?: Record<string, string>,
) => Promise<Answer>;

/** Calls over HTTP as the console's request layer makes them: JSON bodies, FormData uploads as multipart, a Blob as it is. */
export function httpCall(base: string): Call {
  return async (token, method, url, body, lang, extra) => {
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(lang ? { 'accept-language': lang } : {}),
      ...extra,
    };
    let payload: BodyInit | undefined;
    if (body instanceof FormData || body instanceof Blob)
      payload = body; // fetch sets their content type
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    return readAnswer(await fetch(base + url, { method, headers, body: payload }));
  };
}

/**
 * The generated mock file over a fresh mock state, served the way `max dev` serves it: Umi's mock
 * middleware (body-parser, multer, its path-to-regexp, first key that matches) in Umi's Express,
 * on a real HTTP port, so requests go through exactly what the dev server puts them through.
 */
export async function mockClient(): Promise<MockClient> {
  const mock = createMockServer({ entities, fixtures: demoFixtures, logLevel: 'silent' });
  const table = mockRoutes(mock);
  const mockData = Object.fromEntries(
    Object.entries(table).map(([key, handler]) => {
      const [method, path] = key.split(/\s+/);
      return [`${method.toUpperCase()} ${path}`, { method: method.toUpperCase(), path, handler }];
    }),
  );
  const app = express();
  app.use(createMockMiddleware({ context: { mockData } }));
  // Whatever the mock does not take would go to the API proxy: here, a plain 502 to tell it apart.
  app.use(((_req, res) => {
    res.statusCode = 502;
    res.end('not mocked');
  }) as http.RequestListener);
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await mock.start();

  const call = httpCall(base);
  return {
    call,
    routes: Object.keys(table),
    mock,
    async login(loginName = 'admin', password = DEMO_PASSWORD) {
      const r = await call(null, 'POST', '/api/login', { loginName, password });
      if (r.status !== 200) throw new Error(`mock login failed: ${JSON.stringify(r.body)}`);
      return r.body.object.token as string;
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await (await mock.start()).close();
    },
  };
}
