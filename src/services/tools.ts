import { call } from './http/call';

/** The console's tools calls (server/telematics decode route). */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One decoded frame, as the server's decoder shapes it (the CLI prints the same). */
export interface DecodedFrame {
  msgId: string;
  version: number;
  phone: string;
  serial: number;
  packet?: { count: number; index: number };
  protocolVersion?: number;
  encryption?: number;
  /** Present for bodies kept as bytes: 'unknown' | 'fragment' | 'encrypted'. */
  opaque?: string;
  /** Subpackages this message was reassembled from. */
  reassembledFrom?: number;
  body: JsonValue;
}

export interface FrameFailure {
  error: string;
  code?: string;
}

export type FrameResult = DecodedFrame | FrameFailure;

export interface DecodeAnswer {
  results: FrameResult[];
  truncated: boolean;
}

/** `POST /vehicle/tools/jt808/decode`: the pasted text, one frame per line, decoded by the server's codec. */
export const decodeFrames = (frames: string, tzOffsetMinutes: number, verifyChecksum: boolean) =>
  call<DecodeAnswer>('/vehicle/tools/jt808/decode', { method: 'POST', data: { frames, tzOffsetMinutes, verifyChecksum } });
