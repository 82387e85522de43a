/**
 * The derivation thread (entry.cjs loads it): its own database pool and the server's pipeline with
 * every deriver, fed with the spans the server's thread hears committed. Its statements wait only
 * for its own event loop, not for the gateway's. New alarms go back to be announced there.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../platform/db/database';
import { startDerivation } from '../index';
import type { PipelineLog } from '../pipeline';
import { engineDerivers } from '../engine';
import type { FromThread, ThreadConfig, ToThread } from './messages';

const port = parentPort!;
const config = workerData as ThreadConfig;
const post = (m: FromThread) => port.postMessage(m);

/** A log object as plain data (what crosses to the server's log): errors keep type, message, stack and code. */
function cloneable(obj: object): object {
  return JSON.parse(
    JSON.stringify(obj, (_key, v: unknown) =>
      v instanceof Error
        ? { type: v.name, message: v.message, stack: v.stack, ...(v as { code?: unknown }) }
        : typeof v === 'bigint'
          ? String(v)
          : v,
    ),
  ) as object;
}

const log: PipelineLog = {
  info: (obj, msg) => post({ type: 'log', level: 'info', obj: cloneable(obj), msg }),
  warn: (obj, msg) => post({ type: 'log', level: 'warn', obj: cloneable(obj), msg }),
};

async function main(): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: config.poolSize, prepare: config.prepare });
  // Fed by the messages below, not by writers of its own; resumes what was pending before it answers.
  const { pipeline } = await startDerivation({
    db: database.db,
    timeZone: config.timeZone,
    sources: [],
    log,
    lingerMs: config.lingerMs,
    batchSize: config.batchSize,
    workers: config.workers,
    derivers: engineDerivers({
      alarms: { onRaised: (raised) => post({ type: 'raised', alarms: raised }), obdAlarmTypes: config.obdAlarmTypes },
      behaviour: config.behaviour,
      trips: { onClosed: (trips) => post({ type: 'trips', trips }) },
    }),
  });
  port.on('message', (m: ToThread) => {
    switch (m.type) {
      case 'mark':
        void pipeline.mark(m.spans).then(() => post({ type: 'marked', seq: m.seq }));
        break;
      case 'idle':
        void pipeline.idle().then(() => post({ type: 'idle', id: m.id }));
        break;
      case 'stats':
        post({ type: 'stats', id: m.id, stats: pipeline.stats });
        break;
      case 'stop':
        void (async () => {
          await pipeline.stop();
          await database.close();
          port.close(); // the thread ends: its 'exit' on the server's side
        })();
        break;
    }
  });
  post({ type: 'ready' });
}

// A failure to start ends the thread with the error (its 'error' event on the server's side).
main().catch((err: unknown) =>
  process.nextTick(() => {
    throw err;
  }),
);
