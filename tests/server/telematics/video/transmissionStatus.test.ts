/**
 * The platform's transmission status notice (0x9105): while a channel streams to the media server,
 * its terminal is told the channel's packet loss since the last notice, over its 808 session.
 */

import net from 'node:net';
import { sql } from 'kysely';
import { clipPackets } from '../../../../server/simulator/camera';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { MsgId, type DecodedMessage, type LiveVideoStatusBody } from '../../../../server/telematics/jt808/codec';
import { encodeRtpPacket } from '../../../../server/telematics/video/rtpPacket';
import { demoTerminal, until } from '../gateway/harness';
import { startVideo, watch, type Harness } from './harness';

describe('transmission status notice (0x9105)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVideo('pglite', { statusEveryMs: 200 });
  }, 240_000);
  afterAll(() => h?.close());

  it('tells the terminal each streaming channel’s packet loss, in percent', async () => {
    const phone = demoTerminal(23);
    const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
    const got: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => got.push(m));
    await t.connect();
    const r = await sql<{ id: number }>`
      SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(h.s.database.db);
    const [one, two] = [await watch(h, r.rows[0].id, 1), await watch(h, r.rows[0].id, 2)];
    await until(() => got.filter((m) => m.msgId === MsgId.LiveVideoRequest).length === 2);
    const socket = net.connect({ host: '127.0.0.1', port: h.mediaPort });
    await new Promise((done) => socket.once('connect', done));
    // Channel 1 loses one packet in five; channel 2 loses none.
    const lossy = clipPackets({ sim: phone, channel: 1 })
      .slice(0, 25)
      .flat()
      .filter((_, i) => i % 5 !== 4);
    const clean = clipPackets({ sim: phone, channel: 2 }).slice(0, 25).flat();
    socket.write(Buffer.concat([...lossy, ...clean].map(encodeRtpPacket)));
    const notices = () =>
      got.flatMap((m): LiveVideoStatusBody[] => (m.opaque === undefined && m.msgId === MsgId.LiveVideoStatus ? [m.body] : []));
    await until(() => notices().some((n) => n.channel === 1) && notices().some((n) => n.channel === 2));
    const rate1 = notices().find((n) => n.channel === 1)!.lossRate;
    expect(rate1).toBeGreaterThanOrEqual(10);
    expect(rate1).toBeLessThanOrEqual(25);
    expect(notices().find((n) => n.channel === 2)!.lossRate).toBe(0);
    socket.destroy();
    one.close();
    two.close();
    t.destroy();
  });
});
