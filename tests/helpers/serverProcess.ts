import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `server/main.ts` of a project root as `npm start` would, and waits for /api/health.
 * `direct` runs it in node itself rather than under the tsx launcher, so a SIGKILL hits the server.
 */
export async function startServerProcess(
  root: string,
  env: Record<string, string>,
  args: string[] = ['--no-console'],
  /** `fileLimit`: the server's open-file limit (soft and hard), set by the shell before it starts. */
  opts: { direct?: boolean; fileLimit?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const main = path.join(root, 'server/main.ts');
  let [cmd, argv] = opts.direct
    ? [process.execPath, ['--import', 'tsx', main, ...args]]
    : [path.join(root, 'node_modules/.bin/tsx'), [main, ...args]];
  if (opts.fileLimit) [cmd, argv] = ['/bin/sh', ['-c', `ulimit -n ${opts.fileLimit} && exec "$@"`, 'sh', cmd, ...argv]];
  const child = spawn(cmd, argv, {
    cwd: root,
    // No gateway, demo fleet or demo history unless a test asks: parallel servers would fight over
    // port 6808, and a month of history costs minutes.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JT808_PORT: '0',
      SIMULATE: '0',
      DEMO_HISTORY_DAYS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  // Waits for the server itself (healthy, or exited with its output); the bound is only there to
  // print what a hung start-up wrote, and sits above the slowest start seen on a loaded machine.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const r = await fetch(url + '/api/health');
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        // Already gone (exited, or killed by a signal: then exitCode stays null).
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

export async function http(url: string, method: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: r.status, text, json: json as any, headers: r.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of any shape
}
