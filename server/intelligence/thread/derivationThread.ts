/**
 * The derivation on its own thread (PostgreSQL only: an embedded database belongs to one thread).
 * At the ingest budget the gateway keeps the server's event loop busy, and every statement of a
 * pass waited for it: a trivial one took 5.6 ms at 5,200 reports/s against 0.5 ms at 1,200 (README,
 * Alarms). The thread has its own pool and loop; the server's thread only hands it what commits
 * stored and announces the alarms its passes raise.
 *
 * Nothing is lost when the thread dies: the spans it has not acknowledged as persisted are sent
 * again to the thread started in its place, whose pipeline also resumes what was marked.
 */

import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DerivationHandle } from '../index';
import { noStats, type PipelineLog, type PipelineStats, type StoredSpan } from '../pipeline';
import type { RaisedAlarm } from '../alarms/store';
import type { ClosedTrip } from '../../platform/telemetry';
import { spansOf, type StoredBatch, type StoredSource } from '../subscription';
import type { FromThread, ThreadConfig, ToThread } from './messages';

export interface DerivationThreadOptions extends ThreadConfig {
  /** The writers whose commits feed the pipeline (positions, OBD records). */
  sources: StoredSource[];
  /** New alarms the thread's passes committed, to be announced (AlarmEngine.announce). */
  onRaised(alarms: RaisedAlarm[]): void;
  /** Closed trips the thread's passes committed new or changed, to be announced. */
  onTripsClosed?(trips: ClosedTrip[]): void;
  log: PipelineLog & { error(obj: object, msg: string): void };
  /** How long to wait before starting a thread again after one died (ms, default 1000). */
  restartMs?: number;
}

/** The derivation on its thread; `worker` is the thread running now (null while one is started again). */
export interface DerivationThread extends DerivationHandle {
  readonly worker: Worker | null;
}

/** Connections of the thread's pool, opened as needed: a pass's transaction, with room for the marks and a second batch. */
export const DERIVE_THREAD_POOL = 4;

type Request = { message: Extract<ToThread, { type: 'idle' | 'stats' }>; resolve(stats: PipelineStats | undefined): void };

/** Starts the thread and resolves once its pipeline has resumed what was pending (rejects if it cannot start). */
export async function startDerivationThread(opts: DerivationThreadOptions): Promise<DerivationThread> {
  const { sources, onRaised, onTripsClosed, log, restartMs = 1000, ...rest } = opts;
  const config: ThreadConfig = { ...rest, poolSize: rest.poolSize ?? DERIVE_THREAD_POOL };
  let worker: Worker | null = null;
  let ready = false;
  let closing = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let exited: (() => void) | null = null;
  // Spans not yet persisted by a thread, by sequence: sent again to a thread started after one died.
  const unacked = new Map<number, StoredSpan[]>();
  let seq = 0;
  const requests = new Map<number, Request>();
  let nextId = 0;
  let lastStats = noStats();

  const spawn = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = new Worker(path.join(__dirname, 'entry.cjs'), { workerData: config, execArgv: [] });
      worker = w;
      ready = false;
      let started = false;
      w.on('message', (m: FromThread) => {
        switch (m.type) {
          case 'ready':
            ready = started = true;
            for (const [s, spans] of unacked) w.postMessage({ type: 'mark', seq: s, spans } satisfies ToThread);
            for (const r of requests.values()) w.postMessage(r.message);
            resolve();
            break;
          case 'marked':
            unacked.delete(m.seq);
            break;
          case 'raised':
            // A listener's failure is its own: the thread and the server go on.
            try {
              onRaised(m.alarms);
            } catch (err) {
              log.error({ err }, 'announcing alarms from the derivation thread failed');
            }
            break;
          case 'trips':
            try {
              onTripsClosed?.(m.trips);
            } catch (err) {
              log.error({ err }, 'announcing trips from the derivation thread failed');
            }
            break;
          case 'idle':
          case 'stats': {
            if (m.type === 'stats') lastStats = m.stats;
            const r = requests.get(m.id);
            requests.delete(m.id);
            r?.resolve(m.type === 'stats' ? m.stats : undefined);
            break;
          }
          case 'log':
            log[m.level](m.obj, m.msg);
            break;
        }
      });
      w.on('error', (err) => {
        if (!started) reject(err);
        else log.error({ err }, 'derivation thread failed');
      });
      w.on('exit', (code) => {
        if (worker === w) worker = null;
        ready = false;
        if (!started) {
          reject(new Error(`derivation thread exited (${code}) before it started`));
          return;
        }
        if (closing) {
          exited?.();
          return;
        }
        log.error({ code }, 'derivation thread exited; starting it again');
        restartTimer = setTimeout(function restart() {
          restartTimer = undefined;
          spawn().catch((err: unknown) => {
            if (closing) return;
            log.error({ err }, 'derivation thread did not start; trying again');
            restartTimer = setTimeout(restart, restartMs);
          });
        }, restartMs);
      });
    });

  const request = <T extends PipelineStats | undefined>(type: 'idle' | 'stats'): Promise<T> =>
    new Promise((resolve) => {
      // Closed: nothing will derive any more, and the last stats heard stand.
      if (closing && !worker) return resolve((type === 'stats' ? lastStats : undefined) as T);
      const id = nextId++;
      const r: Request = { message: { type, id }, resolve: resolve as Request['resolve'] };
      requests.set(id, r);
      if (ready) worker!.postMessage(r.message);
    });

  const onStored = (batch: StoredBatch) => {
    const spans = spansOf(batch);
    if (!spans.length || closing) return;
    const s = seq++;
    unacked.set(s, spans);
    if (ready) worker!.postMessage({ type: 'mark', seq: s, spans } satisfies ToThread);
  };

  await spawn();
  for (const s of sources) s.on('stored', onStored);
  return {
    get worker() {
      return ready ? worker : null;
    },
    idle: () => request<undefined>('idle'),
    stats: () => request<PipelineStats>('stats'),
    async close() {
      if (closing) return;
      closing = true;
      for (const s of sources) s.off('stored', onStored);
      clearTimeout(restartTimer);
      const w = worker;
      if (w) {
        const done = new Promise<void>((r) => (exited = r));
        if (ready) {
          // The thread finishes its pass and writes the marks it has; one that hangs is ended.
          w.postMessage({ type: 'stop' } satisfies ToThread);
          const timer = setTimeout(() => void w.terminate(), 30_000);
          await done;
          clearTimeout(timer);
        } else {
          await w.terminate();
        }
      }
      // Nobody waits for a thread that is gone: what it did not derive stays marked.
      for (const r of requests.values()) r.resolve(r.message.type === 'stats' ? lastStats : undefined);
      requests.clear();
    },
  };
}
