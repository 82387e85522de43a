/**
 * A child process running simulated terminals for the telematics benchmarks (so terminals and
 * gateway use different cores). Receives its ClientPlan as the first IPC message (thousands of
 * phone numbers do not fit in argv); reports FleetStats over IPC on 'stats' requests and when
 * told to 'stop' (with the positions acknowledged per terminal and the acknowledgement latencies
 * since the last 'mark').
 */

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
  | { type: 'stopped'; stats: FleetStats; ackedPerTerminal: number[]; latency: Array<[number, number]> };

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
  process.on('message', (m: { type: string; waitMs?: number }) => {
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

process.once('message', (m: { type: string; plan: ClientPlan }) => {
  void main(m.plan).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
});
