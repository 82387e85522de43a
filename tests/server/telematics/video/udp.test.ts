/**
 * Media over UDP: the 0x9101 names the media server's port for UDP as for TCP, and a terminal
 * sending its packets as datagrams to that port number gets its channel to the viewers as FLV, as
 * over TCP; a datagram cut short costs its packet only, a lost one the pictures until the next I
 * frame; datagrams from an unknown SIM number are refused (logged once) and the address's later
 * ones dropped.
 */

import dgram from 'node:dgram';
import { sql } from 'kysely';
import { clipPackets } from '../../../../server/simulator/camera';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { MsgId, type DecodedMessage } from '../../../../server/telematics/jt808/codec';
import { encodeRtpPacket, type MediaPacket } from '../../../../server/telematics/video/rtpPacket';
import { demoTerminal, until } from '../gateway/harness';
import { flvFrames } from './flvParse';
import { startVideo, watch, type Harness } from './harness';

describe('live video over UDP', () => {
  let h: Harness;
  let udp: dgram.Socket;
  beforeAll(async () => {
    h = await startVideo('pglite');
    udp = dgram.createSocket('udp4');
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  }, 240_000);
  afterAll(async () => {
    udp?.close();
    await h?.close();
  });

  const sendDatagram = (b: Buffer) => new Promise<void>((r, j) => udp.send(b, h.mediaPort, '127.0.0.1', (e) => (e ? j(e) : r())));

  it('takes a channel’s packets as datagrams on the media port number', async () => {
    const phone = demoTerminal(5);
    const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
    const got: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => got.push(m));
    await t.connect();
    const vehicleId = (
      await sql<{ id: number }>`SELECT v.id FROM vehicle v JOIN terminal t ON v.terminal_id = t.id WHERE t.terminal_no = ${phone}`.execute(
        h.s.database.db,
      )
    ).rows[0].id;
    try {
      const viewer = await watch(h, vehicleId, 1);
      await until(() => got.some((m) => m.msgId === MsgId.LiveVideoRequest));
      const req = got.find((m) => m.msgId === MsgId.LiveVideoRequest)!;
      expect(req.opaque === undefined && req.msgId === MsgId.LiveVideoRequest && req.body).toMatchObject({
        tcpPort: h.mediaPort,
        udpPort: h.mediaPort,
      });
      const frames: MediaPacket[][] = clipPackets({ sim: phone, channel: 1 });
      // The first second, a packet a datagram, in order (waiting for each: the test's own socket drops nothing then).
      for (const f of frames.slice(0, 25)) for (const p of f) await sendDatagram(encodeRtpPacket(p));
      await viewer.until((b) => flvFrames(b).length === 25);
      // A datagram cut short: that packet is lost, so its frame and the rest of the second are dropped.
      const second = frames.slice(25, 50);
      for (const [i, f] of second.entries())
        for (const [k, p] of f.entries()) {
          const bytes = encodeRtpPacket(p);
          await sendDatagram(i === 3 && k === 0 ? bytes.subarray(0, bytes.length - 10) : bytes);
        }
      // The third second plays again from its I frame.
      for (const f of frames.slice(50, 75)) for (const p of f) await sendDatagram(encodeRtpPacket(p));
      const bytes = await viewer.until((b) => flvFrames(b).length === 53);
      expect(flvFrames(bytes).map((f) => f.frameType)).toEqual([1, ...Array(24).fill(2), 1, 2, 2, 1, ...Array(24).fill(2)]);
      expect(h.media.stats.lostPackets).toBeGreaterThan(0);
      viewer.close();
    } finally {
      t.destroy();
    }
  });

  it('refuses an unknown SIM number’s datagrams once, and drops the address’s later ones', async () => {
    const other = dgram.createSocket('udp4');
    await new Promise<void>((r) => other.bind(0, '127.0.0.1', r));
    try {
      const packets = clipPackets({ sim: '099999999999', channel: 1 })[0];
      const refusedBefore = h.logs.filter((l) => l.msg === 'jt1078 media connection refused').length;
      for (const p of packets) await new Promise<void>((r) => other.send(encodeRtpPacket(p), h.mediaPort, '127.0.0.1', () => r()));
      await until(() => h.logs.filter((l) => l.msg === 'jt1078 media connection refused').length === refusedBefore + 1);
      for (const p of packets) await new Promise<void>((r) => other.send(encodeRtpPacket(p), h.mediaPort, '127.0.0.1', () => r()));
      // Then from a third address: refused on its own. Had the second address's later datagrams not been dropped, they would have been refused again.
      const third = dgram.createSocket('udp4');
      await new Promise<void>((r) => third.bind(0, '127.0.0.1', r));
      await new Promise<void>((r) => third.send(encodeRtpPacket(packets[0]), h.mediaPort, '127.0.0.1', () => r()));
      await until(() => h.logs.filter((l) => l.msg === 'jt1078 media connection refused').length === refusedBefore + 2);
      third.close();
      const refused = h.logs.filter((l) => l.msg === 'jt1078 media connection refused').slice(refusedBefore);
      expect(refused.map((l) => l.reason)).toEqual(['unknown SIM number', 'unknown SIM number']);
    } finally {
      other.close();
    }
  });
});
