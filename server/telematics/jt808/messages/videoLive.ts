/**
 * JT/T 1078-2016 live audio and video over the 808 session:
 *   0x9003 query audio-video attributes  empty body
 *   0x1003 audio-video attributes        audio coding BYTE, audio channels BYTE, sample rate BYTE
 *                                        (0 8 kHz, 1 22.05 kHz, 2 44.1 kHz, 3 48 kHz), sample bits BYTE
 *                                        (0 8, 1 16, 2 32), audio frame length WORD, audio output BYTE
 *                                        (0/1), video coding BYTE, audio channels max BYTE, video
 *                                        channels max BYTE
 *   0x9101 live request                  server IP length BYTE, IP STRING, TCP port WORD, UDP port WORD,
 *                                        logical channel BYTE, data type BYTE (0 audio and video, 1 video,
 *                                        2 two-way talk, 3 listen, 4 broadcast, 5 pass-through), stream
 *                                        BYTE (0 main, 1 sub)
 *   0x9102 live control                  channel BYTE, command BYTE (0 close, 1 switch stream, 2 pause,
 *                                        3 resume, 4 close talk), close what BYTE (0 audio and video,
 *                                        1 audio, 2 video), switch to stream BYTE (0 main, 1 sub)
 *   0x9105 live status                   channel BYTE, packet loss rate BYTE (percent, integer part)
 *   0x1005 passenger counts              begin BCD[6], end BCD[6], boarded WORD, alighted WORD
 * Coding codes (the standard's table 12): 6 G.711A, 7 G.711U, 8 G.726, 19 AAC, 26 ADPCMA, 98 H.264,
 * 99 H.265, 100 AVS, 101 SVAC.
 */

import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putGbk8, putTime } from './write';

/** Audio and video coding codes of JT/T 1078 table 12 that the platform names. */
export const AV_CODING = {
  g711a: 6,
  g711u: 7,
  g726: 8,
  aac: 19,
  adpcma: 26,
  h264: 98,
  h265: 99,
  avs: 100,
  svac: 101,
} as const;

/** 0x9101 data types. */
export const LIVE_DATA_TYPES = ['audioVideo', 'video', 'talk', 'listen', 'broadcast', 'passThrough'] as const;
/** 0x9102 commands. */
export const LIVE_CONTROL_COMMANDS = ['close', 'switchStream', 'pause', 'resume', 'closeTalk'] as const;

export interface VideoAttributesBody {
  audioCoding: number;
  audioChannels: number;
  /** 0 8 kHz, 1 22.05 kHz, 2 44.1 kHz, 3 48 kHz. */
  audioSampleRate: number;
  /** 0 8 bits, 1 16 bits, 2 32 bits. */
  audioSampleBits: number;
  audioFrameLength: number;
  audioOutput: boolean;
  videoCoding: number;
  maxAudioChannels: number;
  maxVideoChannels: number;
}

export function decodeVideoAttributes(p: Buffer, start: number, end: number): VideoAttributesBody {
  const r = new BodyReader(p, start, end, '0x1003');
  const body = {
    audioCoding: r.u8('audioCoding'),
    audioChannels: r.u8('audioChannels'),
    audioSampleRate: r.u8('audioSampleRate'),
    audioSampleBits: r.u8('audioSampleBits'),
    audioFrameLength: r.u16('audioFrameLength'),
    audioOutput: r.u8('audioOutput') === 1,
    videoCoding: r.u8('videoCoding'),
    maxAudioChannels: r.u8('maxAudioChannels'),
    maxVideoChannels: r.u8('maxVideoChannels'),
  };
  r.done();
  return body;
}

export function encodeVideoAttributes(b: VideoAttributesBody): Buffer {
  return new ByteWriter(10)
    .u8(b.audioCoding)
    .u8(b.audioChannels)
    .u8(b.audioSampleRate)
    .u8(b.audioSampleBits)
    .u16(b.audioFrameLength)
    .u8(b.audioOutput ? 1 : 0)
    .u8(b.videoCoding)
    .u8(b.maxAudioChannels)
    .u8(b.maxVideoChannels)
    .finish();
}

export interface LiveVideoRequestBody {
  /** The media server's address as the terminal should dial it. */
  host: string;
  tcpPort: number;
  /** 0 when the server takes no UDP. */
  udpPort: number;
  channel: number;
  /** Index into LIVE_DATA_TYPES. */
  dataType: number;
  /** 0 main, 1 sub stream. */
  stream: number;
}

export function decodeLiveVideoRequest(p: Buffer, start: number, end: number): LiveVideoRequestBody {
  const r = new BodyReader(p, start, end, '0x9101');
  const body = {
    host: r.gbk8('host'),
    tcpPort: r.u16('tcpPort'),
    udpPort: r.u16('udpPort'),
    channel: r.u8('channel'),
    dataType: r.u8('dataType'),
    stream: r.u8('stream'),
  };
  r.done();
  return body;
}

export function encodeLiveVideoRequest(b: LiveVideoRequestBody): Buffer {
  return putGbk8(new ByteWriter(32), b.host, 'host').u16(b.tcpPort).u16(b.udpPort).u8(b.channel).u8(b.dataType).u8(b.stream).finish();
}

export interface LiveVideoControlBody {
  channel: number;
  /** Index into LIVE_CONTROL_COMMANDS. */
  command: number;
  /** With command 0: 0 audio and video, 1 audio only, 2 video only. */
  closeWhat: number;
  /** With command 1: 0 main, 1 sub stream. */
  stream: number;
}

export function decodeLiveVideoControl(p: Buffer, start: number, end: number): LiveVideoControlBody {
  const r = new BodyReader(p, start, end, '0x9102');
  const body = { channel: r.u8('channel'), command: r.u8('command'), closeWhat: r.u8('closeWhat'), stream: r.u8('stream') };
  r.done();
  return body;
}

export function encodeLiveVideoControl(b: LiveVideoControlBody): Buffer {
  return new ByteWriter(4).u8(b.channel).u8(b.command).u8(b.closeWhat).u8(b.stream).finish();
}

export interface LiveVideoStatusBody {
  channel: number;
  /** Packet loss of the channel's transmission, percent (integer part). */
  lossRate: number;
}

export function decodeLiveVideoStatus(p: Buffer, start: number, end: number): LiveVideoStatusBody {
  const r = new BodyReader(p, start, end, '0x9105');
  const body = { channel: r.u8('channel'), lossRate: r.u8('lossRate') };
  r.done();
  return body;
}

export function encodeLiveVideoStatus(b: LiveVideoStatusBody): Buffer {
  return new ByteWriter(2).u8(b.channel).u8(b.lossRate).finish();
}

export interface PassengerCountsBody {
  /** ISO UTC; null when the bytes are no valid time. */
  begin: string | null;
  end: string | null;
  boarded: number;
  alighted: number;
}

export function decodePassengerCounts(p: Buffer, start: number, end: number, tzOffsetMinutes: number): PassengerCountsBody {
  const r = new BodyReader(p, start, end, '0x1005');
  const body = {
    begin: r.time('begin', tzOffsetMinutes),
    end: r.time('end', tzOffsetMinutes),
    boarded: r.u16('boarded'),
    alighted: r.u16('alighted'),
  };
  r.done();
  return body;
}

export function encodePassengerCounts(b: PassengerCountsBody, tzOffsetMinutes: number): Buffer {
  const w = new ByteWriter(16);
  putTime(w, b.begin, tzOffsetMinutes);
  putTime(w, b.end, tzOffsetMinutes);
  return w.u16(b.boarded).u16(b.alighted).finish();
}
