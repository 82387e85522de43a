/**
 * Video with GATEWAY_WORKERS=2 on one PostgreSQL and a nats-server of the test's own: a camera
 * terminal's session is held by one worker, viewers' tickets and WebSockets land on both (node:cluster
 * hands connections in turn); the terminal is asked once (0x9101, naming the holder's own media port)
 * and every viewer gets FLV from an I frame (and the clock messages if it asked), wherever its socket is; the last viewer leaving closes
 * the channel (0x9102). A playback opened through either worker streams, and its controls reach it
 * through both.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { attachCamera } from '../../../../server/simulator/camera';
import { FILE_EVERY_MS } from '../../../../server/simulator/cameraPlayback';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { MsgId, type DecodedMessage } from '../../../../server/telematics/jt808/codec';
import { CLOCK_MESSAGE } from '../../../../server/telematics/video/clock';
import { startNatsServer, type NatsServer } from '../../../helpers/natsServer';
import { freePort, http, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { ADMIN_PASSWORD, freshPostgres } from '../../../helpers/testServer';
import { openBinarySocket, type BinarySocket } from '../../../helpers/wsClient';
import { demoTerminal, until } from '../gateway/harness';
import { flvFrames, flvTags } from '../video/flvParse';

const root = path.resolve(__dirname, '../../../..');

describe('video with GATEWAY_WORKERS=2 and NATS', () => {
  let nats: NatsServer;
  let pg: { url: string; drop: () => Promise<void> };
  let server: ServerProcess;
  let database: Database;
  let jt808Port: number;
  let mediaPort: number;
  let token: string;

  beforeAll(async () => {
    nats = await startNatsServer();
    pg = await freshPostgres();
    jt808Port = await freePort();
    mediaPort = await freePort();
    server = await startServerProcess(
      root,
      {
        DATABASE_URL: pg.url,
        NATS_URL: nats.url,
        GATEWAY_WORKERS: '2',
        SEED: 'demo',
        ADMIN_PASSWORD,
        JT808_PORT: String(jt808Port),
        JT1078_MEDIA_PORT: String(mediaPort),
      },
      ['--no-console'],
      { direct: true },
    );
    database = await openDatabase({ databaseUrl: pg.url, poolSize: 2 });
    token = (await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).json.object.token as string;
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await pg?.drop();
    await nats?.stop();
  });

  async function camera(n: number): Promise<{ t: SimTerminal; got: DecodedMessage[]; vehicleId: number }> {
    const phone = demoTerminal(n);
    const t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone });
    attachCamera(t, phone);
    const got: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => got.push(m));
    await t.connect();
    const r = await sql<{ vehicle_id: number }>`
      SELECT v.id AS vehicle_id FROM terminal t JOIN vehicle v ON v.terminal_id = t.id WHERE t.terminal_no = ${phone}`.execute(database.db);
    return { t, got, vehicleId: r.rows[0].vehicle_id };
  }

  /** A ticket asked on a connection of its own, so successive ones reach both workers. */
  async function ticket(pathname: string, body: object): Promise<{ url: string; playbackId?: string }> {
    const r = await http(`${server.url}${pathname}`, 'POST', body, token, { connection: 'close' });
    expect(r.status).toBe(200);
    return r.json as { url: string; playbackId?: string };
  }

  const open = (url: string): Promise<BinarySocket> => openBinarySocket(server.url.replace('http', 'ws') + url);
  const sent = (got: DecodedMessage[], id: number) => got.filter((m) => m.msgId === id);

  it('streams one upstream to viewers on both workers, and closes it when the last leaves', async () => {
    const c = await camera(7);
    const viewers: BinarySocket[] = [];
    try {
      // The first viewer asks for the clock messages too (the player's latency): they come through NATS as well.
      for (let i = 0; i < 4; i++)
        viewers.push(await open((await ticket('/api/video/live', { vehicleId: c.vehicleId, channel: 1 })).url + (i ? '' : '&clock=true')));
      const isClock = (b: Buffer) => b[0] === CLOCK_MESSAGE;
      await until(() => viewers[0].chunks.filter(isClock).length >= 2, 30_000);
      for (const v of viewers) {
        await until(() => flvFrames(Buffer.concat(v.chunks.filter((b) => !isClock(b)))).length >= 5, 30_000);
        const bytes = Buffer.concat(v.chunks.filter((b) => !isClock(b)));
        expect(flvTags(bytes)[0]).toMatchObject({ type: 9, avcPacketType: 0 });
        expect(flvFrames(bytes)[0]).toMatchObject({ frameType: 1 });
      }
      expect(viewers.slice(1).some((v) => v.chunks.some(isClock))).toBe(false);
      // Asked once, to the media port of the worker holding the session.
      const asked = sent(c.got, MsgId.LiveVideoRequest);
      expect(asked).toHaveLength(1);
      const body = asked[0].opaque === undefined && asked[0].msgId === MsgId.LiveVideoRequest ? asked[0].body : null;
      expect([mediaPort, mediaPort + 1]).toContain(body?.tcpPort);
      for (const v of viewers) v.close();
      // The grace time (10 s) once the last viewer left, wherever it was.
      await until(() => sent(c.got, MsgId.LiveVideoControl).length > 0, 30_000);
      expect(sent(c.got, MsgId.LiveVideoRequest)).toHaveLength(1);
    } finally {
      for (const v of viewers) v.close();
      c.t.destroy();
    }
  }, 90_000);

  it('plays a recording back through either worker and takes its controls through both', async () => {
    const c = await camera(8);
    const begin = new Date(Math.floor(Date.now() / FILE_EVERY_MS) * FILE_EVERY_MS - FILE_EVERY_MS);
    const viewers: BinarySocket[] = [];
    try {
      const tickets = [];
      for (let i = 0; i < 2; i++) {
        const t = await ticket('/api/video/playback', { vehicleId: c.vehicleId, channel: 2 + i, begin: begin.toISOString() });
        tickets.push(t);
        viewers.push(await open(t.url));
      }
      for (const v of viewers) await v.until((b) => flvFrames(b).length >= 5, 30_000);
      // Each control on a connection of its own: through both workers, to the holder of each playback.
      for (const t of tickets) {
        for (const command of ['pause', 'resume']) {
          const r = await http(`${server.url}/api/video/playback/${t.playbackId}/control`, 'POST', { command }, token, {
            connection: 'close',
          });
          expect(r.status).toBe(200);
        }
      }
      expect(sent(c.got, MsgId.PlaybackControl)).toHaveLength(4);
      // No playback of that id: not found, at once.
      const none = await http(`${server.url}/api/video/playback/nothing/control`, 'POST', { command: 'pause' }, token);
      expect(none.status).toBe(404);
      for (const v of viewers) v.close();
      await until(() => sent(c.got, MsgId.PlaybackControl).length === 6, 30_000);
    } finally {
      for (const v of viewers) v.close();
      c.t.destroy();
    }
  }, 90_000);
});
