/** Parent side of clientProcess.ts: start, query and stop terminal processes. */

import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { FleetStats } from '../../server/simulator/fleet';
import type { ClientMessage, ClientPlan } from './clientProcess';

export class ClientProcess {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (m: ClientMessage) => void>();

  constructor(plan: ClientPlan) {
    this.child = fork(path.join(__dirname, 'clientProcess.ts'), [], {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.send({ type: 'plan', plan });
    this.child.on('message', (m: ClientMessage) => {
      const w = this.waiting.get(m.type);
      this.waiting.delete(m.type);
      w?.(m);
    });
  }

  private next<T extends ClientMessage['type']>(type: T): Promise<Extract<ClientMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`client process exited (${code}) before '${type}'`));
      this.waiting.set(type, (m) => {
        this.child.off('exit', exited);
        resolve(m as Extract<ClientMessage, { type: T }>);
      });
      this.child.once('exit', exited);
    });
  }

  started(): Promise<{ stats: FleetStats; connectMs: number }> {
    return this.next('started');
  }

  async stats(): Promise<{ stats: FleetStats; rssBytes: number }> {
    const r = this.next('stats');
    this.child.send({ type: 'stats' });
    return r;
  }

  async stop(waitMs = 30_000): Promise<FleetStats> {
    return (await this.finish(waitMs)).stats;
  }

  /** Stops, with the positions acknowledged per terminal and the latencies since mark(). */
  async finish(waitMs = 30_000): Promise<Extract<ClientMessage, { type: 'stopped' }>> {
    const r = this.next('stopped');
    this.child.send({ type: 'stop', waitMs });
    return r;
  }

  /** Starts the acknowledgement latencies afresh (past a ramp-up). */
  async mark(): Promise<void> {
    const r = this.next('marked');
    this.child.send({ type: 'mark' });
    await r;
  }

  /** The acknowledgement latencies since the last mark() or take(), starting afresh. */
  async take(): Promise<Array<[number, number]>> {
    const r = this.next('taken');
    this.child.send({ type: 'take' });
    return (await r).latency;
  }

  /** Every terminal of the process uploads a photo of `bytes` at once; each upload's ms once all are done. */
  async upload(bytes: number): Promise<{ ms: number[]; failed: number }> {
    const r = this.next('uploaded');
    this.child.send({ type: 'upload', bytes });
    return r;
  }

  get pid(): number {
    return this.child.pid!;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

export const sum = (xs: FleetStats[], k: keyof FleetStats) => xs.reduce((a, s) => a + s[k], 0);

/**
 * The phones split over processes of at most `perProcess` terminals each, process i using the
 * source addresses 127.0.0.(2 + k·i) … (1 + k·(i + 1)) for k = `addressesPerProcess` (each
 * address has the ~28,000 ephemeral ports of ip_local_port_range towards one gateway port).
 * `authCodes`, in the order of `phones`, for terminals registered beforehand.
 */
export function spawnClients(
  port: number,
  phones: string[],
  perProcess: number,
  addressesPerProcess: number,
  plan: Omit<ClientPlan, 'host' | 'port' | 'phones' | 'localAddresses' | 'authCodes'>,
  authCodes?: string[],
): ClientProcess[] {
  const out: ClientProcess[] = [];
  for (let i = 0; i * perProcess < phones.length; i++) {
    const localAddresses = Array.from({ length: addressesPerProcess }, (_, k) => `127.0.0.${2 + addressesPerProcess * i + k}`);
    const slice = [i * perProcess, (i + 1) * perProcess] as const;
    out.push(
      new ClientProcess({
        ...plan,
        host: '127.0.0.1',
        port,
        phones: phones.slice(...slice),
        authCodes: authCodes?.slice(...slice),
        localAddresses,
      }),
    );
  }
  return out;
}
