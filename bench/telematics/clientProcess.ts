/**
 * A child process running simulated terminals for the telematics benchmarks (so terminals and
 * gateway use different cores). Receives its ClientPlan as the first IPC message (thousands of
 * phone numbers do not fit in argv); reports FleetStats over IPC on 'stats' requests and when
 * told to 'stop' (with the positions acknowledged per terminal and the acknowledgement latencies
 * since the last 'mark'); 'take' hands over the latencies since the last 'mark' or 'take' and starts
 * afresh, and 'upload' has every terminal upload a photo of that many bytes at once (0x0801 in
 * packages), answered with each upload's time once all are done.
 */

import { randomBytes } from 'node:crypto';
import { Fleet, type FleetStats } from '../../server/simulator/fleet';
import { LatencyHistogram } from '../../server/simulator/latency';

export interface ClientPlan {
  host: string;
  port: number;
  phones: string[];
  /** The codes the terminals were issued (pre-registered); absent: each registers first. */
  authCodes?: string[];
  intervalMs: number;
  timeStepMs?: number;
  localAddresses?: string[];
  connectConcurrency?: number;
  ackTimeoutMs?: number;
  heartbeatMs?: number;
}

export type ClientMessage =
  | { type: 'started'; stats: FleetStats; connectMs: number }
  | { type: 'stats'; stats: FleetStats; rssBytes: number }
  | { type: 'marked' }
  | { type: 'stopped'; stats: FleetStats; ackedPerTerminal: number[]; latency: Array<[number, number]> }
  | { type: 'taken'; latency: Array<[number, number]> }
  | { type: 'uploaded'; ms: number[]; failed: number };

async function main(plan: ClientPlan): Promise<void> {
  let latency = new LatencyHistogram();
  const fleet = new Fleet({
    host: plan.host,
    port: plan.port,
    terminals: plan.phones.map((phone, i) => ({ phone, authCode: plan.authCodes?.[i] })),
    intervalMs: plan.intervalMs,
    timeStepMs: plan.timeStepMs,
    localAddresses: plan.localAddresses,
    outageChance: 0,
    connectConcurrency: plan.connectConcurrency,
    ackTimeoutMs: plan.ackTimeoutMs,
    heartbeatMs: plan.heartbeatMs,
    ackLatency: { record: (ms: number) => latency.record(ms) },
  });
  const send = (m: ClientMessage) => process.send!(m);
  const t0 = Date.now();
  await fleet.start();
  send({ type: 'started', stats: fleet.stats(), connectMs: Date.now() - t0 });
  process.on('message', (m: { type: string; waitMs?: number; bytes?: number }) => {
    if (m.type === 'take') {
      send({ type: 'taken', latency: latency.toPairs() });
      latency = new LatencyHistogram();
    }
    if (m.type === 'upload') void upload(fleet, m.bytes ?? 200_000).then(send);
    if (m.type === 'stats') send({ type: 'stats', stats: fleet.stats(), rssBytes: process.memoryUsage().rss });
    if (m.type === 'mark') {
      latency = new LatencyHistogram();
      send({ type: 'marked' });
    }
    if (m.type === 'stop') {
      void fleet.stop(m.waitMs ?? 30_000).then(() => {
        send({ type: 'stopped', stats: fleet.stats(), ackedPerTerminal: fleet.ackedPerTerminal(), latency: latency.toPairs() });
        setTimeout(() => process.exit(0), 100);
      });
    }
  });
}

/** A photo of `bytes` from every terminal at once: each upload's time (ms) and how many failed. */
async function upload(fleet: Fleet, bytes: number): Promise<ClientMessage> {
  // JPEG start and end markers around noise (which does not compress: the worst case on the wire).
  const data = randomBytes(bytes);
  data.set([0xff, 0xd8], 0);
  data.set([0xff, 0xd9], bytes - 2);
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    fleet.terminals.map(async (t, i) => {
      const t0 = Date.now();
      const ok = await t.uploadMedia({ mediaId: 1_000_000 + i, type: 0, format: 0, event: 0, channel: 1 }, data);
      if (ok) ms.push(Date.now() - t0);
      else failed++;
    }),
  );
  return { type: 'uploaded', ms, failed };
}

process.once('message', (m: { type: string; plan: ClientPlan }) => {
  void main(m.plan).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
});
