/**
 * A video stack for tests over real TCP: the gateway, the media server on an ephemeral port,
 * the live channels (short grace time), the playbacks and the video routes on a listening test server, with the
 * media server's log lines kept.
 */

import pino from 'pino';
import { Jt808Gateway } from '../../../../server/telematics/gateway/server';
import { findTerminal } from '../../../../server/telematics/gateway/terminals';
import { PositionWriter } from '../../../../server/telematics/store/writer';
import { LiveChannels } from '../../../../server/telematics/video/liveChannels';
import { MediaServer } from '../../../../server/telematics/video/mediaServer';
import { registerVideoRoutes } from '../../../../server/telematics/video/routes';
import { Playbacks } from '../../../../server/telematics/video/playbacks';
import { localVideo } from '../../../../server/telematics/video/source';
import {
  downlinkPlayback,
  downlinkStatus,
  downlinkUpstream,
  queryResources,
  type MediaAddress,
} from '../../../../server/telematics/video/upstream';
import { ADMIN_PASSWORD, startTestServer, type Backend, type TestServer } from '../../../helpers/testServer';
import { openBinarySocket, type BinarySocket } from '../../../helpers/wsClient';

/** The grace time of the tests' live channels, ms. */
export const GRACE_MS = 400;

export interface Harness {
  s: TestServer;
  gateway: Jt808Gateway;
  gatewayPort: number;
  channels: LiveChannels;
  playbacks: Playbacks;
  media: MediaServer;
  mediaPort: number;
  httpUrl: string;
  logs: Array<{ msg: string; reason?: string }>;
  admin: string;
  close(): Promise<void>;
}

export async function startVideo(backend: Backend, opts: { statusEveryMs?: number } = {}): Promise<Harness> {
  const s = await startTestServer(backend);
  const db = s.database.db;
  const writer = new PositionWriter(db, { copyPool: s.database.pool });
  const gateway = new Jt808Gateway({ db, log: pino({ level: 'silent' }), writer });
  const port = await gateway.listen(0, '127.0.0.1');
  const logs: Harness['logs'] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const address: MediaAddress = { host: '127.0.0.1', port: 0 };
  const channels = new LiveChannels(downlinkUpstream(gateway, address), { graceMs: GRACE_MS });
  const playbacks = new Playbacks(downlinkPlayback(gateway, address));
  const media = new MediaServer({
    channels,
    playbacks,
    log,
    status: downlinkStatus(gateway),
    statusEveryMs: opts.statusEveryMs,
    resolve: async (sim) => (await findTerminal(db, sim))?.terminalId ?? null,
  });
  address.port = await media.listen(0, '127.0.0.1');
  await registerVideoRoutes(s.app, {
    db,
    video: localVideo(channels, playbacks),
    resources: (terminalId, q) => queryResources(gateway, terminalId, q),
    secret: 'test-secret',
    isOnline: (id) => gateway.isOnline(id),
  });
  const httpUrl = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await s.login('admin', ADMIN_PASSWORD);
  return {
    s,
    gateway,
    gatewayPort: port,
    channels,
    playbacks,
    media,
    mediaPort: address.port,
    httpUrl,
    logs,
    admin,
    async close() {
      channels.close();
      playbacks.close();
      await media.close();
      await gateway.close();
      await s.close();
    },
  };
}

/** A stream ticket for a vehicle's channel, as the caller with this token asks for it. */
export async function ticket(
  h: Harness,
  token: string,
  vehicleId: number,
  channel: number,
): Promise<{ status: number; url?: string; ticket?: string }> {
  const r = await h.s.call(token, 'POST', '/api/video/live', { vehicleId, channel });
  return { status: r.status, url: r.body?.url, ticket: r.body?.ticket };
}

/** A viewer of a vehicle's channel, as the admin. */
export async function watch(h: Harness, vehicleId: number, channel: number): Promise<BinarySocket> {
  const t = await ticket(h, h.admin, vehicleId, channel);
  if (t.status !== 200) throw new Error(`ticket: HTTP ${t.status}`);
  return openBinarySocket(h.httpUrl.replace('http', 'ws') + t.url!);
}
