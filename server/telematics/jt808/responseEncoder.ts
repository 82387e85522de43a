/**
 * 0x8001 platform general responses to one terminal, from a packet made once by the generic
 * encoder: the gateway sends one per report, and encoding each from scratch (header, BCD phone,
 * body writer, packet, escaping: six buffers) cost about as much as decoding the report.
 */

import * as framing from './framing';
import { MsgId, type Jt808Version } from './constants';
import { encodePacket } from './encode';
import { encodeGeneralResponse } from './messages/general';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { escapeFrame, xorChecksum } = framing;

export interface ResponseHeader {
  phone: string;
  version: Jt808Version;
  protocolVersion?: number;
}

/** Body of 0x8001: reply serial WORD, reply id WORD, result BYTE (encodeGeneralResponse). */
const BODY_BYTES = 5;

export class ResponseEncoder {
  /** The unescaped packet, rewritten in place for each response (escapeFrame copies it). */
  private readonly packet: Buffer;
  private readonly serialAt: number;
  private readonly bodyAt: number;

  constructor(readonly header: ResponseHeader) {
    const body = encodeGeneralResponse({ replySerial: 0, replyMsgId: 0, result: 0 });
    this.packet = encodePacket(
      { msgId: MsgId.PlatformResponse, phone: header.phone, serial: 0, version: header.version, protocolVersion: header.protocolVersion },
      body,
    );
    this.bodyAt = this.packet.length - 1 - BODY_BYTES;
    this.serialAt = this.bodyAt - 2;
  }

  /** Whether this encoder writes the header `h` asks for. */
  fits(h: ResponseHeader): boolean {
    return h.phone === this.header.phone && h.version === this.header.version && h.protocolVersion === this.header.protocolVersion;
  }

  /** The wire frame; the same bytes as encodeMessage gives for this header and body. */
  frame(serial: number, replySerial: number, replyMsgId: number, result: number): Buffer {
    const p = this.packet;
    const b = this.bodyAt;
    p.writeUInt16BE(serial, this.serialAt);
    p.writeUInt16BE(replySerial, b);
    p.writeUInt16BE(replyMsgId, b + 2);
    p.writeUInt8(result, b + 4);
    p[b + BODY_BYTES] = xorChecksum(p, 0, b + BODY_BYTES);
    return escapeFrame(p);
  }
}
