/** A nats-server of the test's own: a free port, JetStream in a temporary directory, stopped with the test. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './serverProcess';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL with `hard`) and starts it again on the same port and store. */
  restart(hard?: boolean): Promise<void>;
  stop(): Promise<void>;
}

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nats-server not listening on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startNatsServer(): Promise<NatsServer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-js-'));
  let child: ChildProcess;
  const start = async () => {
    child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
    await listening(port);
  };
  const stopChild = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async restart(hard = false) {
      await stopChild(hard ? 'SIGKILL' : 'SIGTERM');
      await start();
    },
    async stop() {
      await stopChild('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
