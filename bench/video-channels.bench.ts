/**
 * Live video at the issue's size (JT/T 1078, issue 34): 64 channels at once, 4 of them with 16
 * viewers each and 60 with one, while other terminals keep reporting positions. The server (gateway,
 * media server, live channels, video routes, on PostgreSQL) runs here; the cameras (16 terminals × 4
 * channels streaming the shipped test clip) and the viewers run in one child process, and the
 * position reporters in another, so the server's figures are its own.
 *
 * Reported, each phase BENCH_VIDEO_SECONDS long: the reporters' acknowledgement p50/p99 without
 * video and with the 64 channels; the server's CPU (ms per second) in each; its memory per live
 * channel (heap + external after a forced collection, and RSS, against before the channels opened);
 * each viewer's time from opening the socket to its first picture; the bytes delivered per second.
 *
 *   npx tsx bench/video-channels.bench.ts   (BENCH_VIDEO_REPORTERS=300 at 1/s, BENCH_VIDEO_SECONDS=15)
 */

import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { LatencyHistogram } from '../server/simulator/latency';
import { startVideo, ticket } from '../tests/server/telematics/video/harness';
import { percentile, runAsScript, type BenchResult } from './lib';
import { spawnClients } from './telematics/clients';
import { provisionTerminals } from './telematics/provision';
import type { VideoClientMessage, VideoClientPlan, ViewerStats } from './telematics/videoClients';

const REPORTERS = Number(process.env.BENCH_VIDEO_REPORTERS || 300);
const SECONDS = Number(process.env.BENCH_VIDEO_SECONDS || 15);
/** BENCH_VIDEO_PROFILE=<file>: a CPU profile of the phase with video (for bench/telematics/profileSummary.ts). */
const PROFILE = process.env.BENCH_VIDEO_PROFILE;
const CAMERAS = 16;
const CHANNELS_PER_CAMERA = 4;
const CROWDED = 4;
const CROWD = 16;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The server's memory once garbage is collected: JS heap + Buffers outside it, and RSS. */
function memory(): { heapAndExternal: number; rss: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapAndExternal: m.heapUsed + m.external, rss: m.rss };
}

class VideoClients {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<string, (m: VideoClientMessage) => void>();

  constructor(plan: VideoClientPlan) {
    this.child = fork(path.join(__dirname, 'telematics', 'videoClients.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.send({ type: 'plan', plan });
    this.child.on('message', (m: VideoClientMessage) => {
      const w = this.waiting.get(m.type);
      this.waiting.delete(m.type);
      w?.(m);
    });
  }

  next<T extends VideoClientMessage['type']>(type: T, send?: object): Promise<Extract<VideoClientMessage, { type: T }>> {
    const r = new Promise<Extract<VideoClientMessage, { type: T }>>((resolve) =>
      this.waiting.set(type, (m) => resolve(m as Extract<VideoClientMessage, { type: T }>)),
    );
    if (send) this.child.send(send);
    return r;
  }

  stop(): void {
    this.child.send({ type: 'stop' });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (b: number) => +(b / 1024 / 1024).toFixed(1);

export async function run(): Promise<BenchResult[]> {
  const h = await startVideo('postgres');
  const db = h.s.database.db;
  const phones = await provisionTerminals(db, CAMERAS + REPORTERS);
  const cameras = phones.slice(0, CAMERAS);
  const video = new VideoClients({ host: '127.0.0.1', port: h.gatewayPort, phones: cameras });
  const [reporters] = spawnClients(h.gatewayPort, phones.slice(CAMERAS), REPORTERS, 1, { intervalMs: 1000 });
  await Promise.all([video.next('connected'), reporters.started()]);
  const vehicles = await db
    .selectFrom('vehicle')
    .innerJoin('terminal', 'terminal.id', 'vehicle.terminal_id')
    .select(['vehicle.id', 'terminal.terminal_no'])
    .where('terminal.terminal_no', 'in', cameras)
    .execute();
  const vehicleOf = new Map(vehicles.map((v) => [v.terminal_no, v.id]));

  /** One phase: the reporters' acknowledgements and the server's CPU over SECONDS. */
  const phase = async (profile?: string) => {
    const session = profile ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    await reporters.mark();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    await sleep(SECONDS * 1000);
    const cpu = process.cpuUsage(cpu0);
    loop.disable();
    const wallS = (Date.now() - t0) / 1000;
    const acks = new LatencyHistogram();
    acks.add(await reporters.take());
    if (session && profile) {
      fs.writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
      session.disconnect();
    }
    return {
      ackP50Ms: acks.percentile(50),
      ackP99Ms: acks.percentile(99),
      acks: acks.count,
      serverCpuMsPerS: +((cpu.user + cpu.system) / 1000 / wallS).toFixed(0),
      eventLoopDelayMs: { p99: +(loop.percentile(99) / 1e6).toFixed(0), max: +(loop.max / 1e6).toFixed(0) },
    };
  };

  await sleep(3000); // past the reporters' connect burst
  const quiet = await phase();
  const before = memory();

  // 64 channels: the first CROWDED with CROWD viewers each, the other 60 with one.
  const urls: string[] = [];
  let k = 0;
  for (const phone of cameras) {
    for (let channel = 1; channel <= CHANNELS_PER_CAMERA; channel++, k++) {
      const viewers = k < CROWDED ? CROWD : 1;
      for (let v = 0; v < viewers; v++) {
        const t = await ticket(h, h.admin, vehicleOf.get(phone)!, channel);
        if (t.status !== 200) throw new Error(`ticket: HTTP ${t.status}`);
        urls.push(h.httpUrl.replace('http', 'ws') + t.url!);
      }
    }
  }
  const watching = await video.next('watching', { type: 'watch', urls });
  const firstPicture = watching.viewers.map((v) => v.firstPictureMs ?? Infinity).sort((a, b) => a - b);
  const bytes0 = (await video.next('stats', { type: 'stats' })).viewers.reduce((a, v) => a + v.bytes, 0);
  const live = await phase(PROFILE);
  const during = memory();
  const end = await video.next('stats', { type: 'stats' });
  const bytes1 = end.viewers.reduce((a: number, v: ViewerStats) => a + v.bytes, 0);
  const channels = CAMERAS * CHANNELS_PER_CAMERA;

  video.stop();
  await reporters.stop();
  await h.close();
  return [
    {
      name: 'video-channels',
      date: new Date().toISOString(),
      load1: +os.loadavg()[0].toFixed(1),
      channels,
      viewers: urls.length,
      reporters: REPORTERS,
      seconds: SECONDS,
      withoutVideo: quiet,
      with64Channels: live,
      firstPictureMs: { p50: percentile(firstPicture, 50), p95: percentile(firstPicture, 95), max: firstPicture.at(-1) },
      viewersClosed: end.viewers.filter((v) => v.closed).length,
      deliveredMBPerS: +((bytes1 - bytes0) / 1024 / 1024 / SECONDS).toFixed(2),
      memoryPerChannelKB: {
        heapAndExternal: Math.round((during.heapAndExternal - before.heapAndExternal) / channels / 1024),
        rss: Math.round((during.rss - before.rss) / channels / 1024),
      },
      serverMemoryMB: { before: mb(before.rss), with64Channels: mb(during.rss) },
    },
  ];
}

if (require.main === module) runAsScript(run);
