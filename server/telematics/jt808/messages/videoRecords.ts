/**
 * JT/T 1078-2016 recorded audio and video over the 808 session:
 *   0x9205 query resources   channel BYTE (0 every one), begin BCD[6], end BCD[6] (zeros: no bound),
 *                            alarm flags 64BITS (zeros: any), resource type BYTE (0 audio and video,
 *                            1 audio, 2 video, 3 video or audio and video), stream BYTE (0 any, 1 main,
 *                            2 sub), storage BYTE (0 any, 1 main, 2 backup)
 *   0x1205 resource list     reply serial WORD, count DWORD, per resource: channel BYTE, begin BCD[6],
 *                            end BCD[6], alarm flags 64BITS, resource type BYTE, stream BYTE, storage
 *                            BYTE, size DWORD (28 bytes)
 *   0x9201 playback request  server IP length BYTE, IP STRING, TCP port WORD, UDP port WORD, channel
 *                            BYTE, resource type BYTE, stream BYTE, storage BYTE, mode BYTE (0 normal,
 *                            1 fast forward, 2 key frames backward, 3 key frames, 4 single frame),
 *                            speed BYTE (0 none, 1–5: ×1, ×2, ×4, ×8, ×16), begin BCD[6], end BCD[6]
 *   0x9202 playback control  channel BYTE, command BYTE (0 start, 1 pause, 2 end, 3 fast forward,
 *                            4 key frames backward, 5 seek, 6 key frames), speed BYTE, seek to BCD[6]
 *   0x9206 upload by FTP     server length BYTE, server STRING, port WORD, user length BYTE, user,
 *                            password length BYTE, password, path length BYTE, path, channel BYTE,
 *                            begin BCD[6], end BCD[6], alarm flags 64BITS, resource type BYTE, stream
 *                            BYTE, storage BYTE, conditions BYTE (bit 0 Wi-Fi, 1 LAN, 2 3G/4G)
 *   0x1206 upload finished   reply serial WORD, result BYTE (0 done, 1 failed)
 * The 64-bit alarm flags are big-endian: the first DWORD is bits 32–63 (the video alarms of the
 * standard's table 13), the second bits 0–31 (the 808 alarm flags of 0x0200).
 */

import { ByteWriter } from '../bytes';
import { Jt808DecodeError } from '../errors';
import { BodyReader } from '../reader';
import { putGbk8, putTime } from './write';

/** 0x9201 playback modes. */
export const PLAYBACK_MODES = ['normal', 'fastForward', 'keyFramesBackward', 'keyFrames', 'singleFrame'] as const;
/** 0x9202 playback commands. */
export const PLAYBACK_COMMANDS = ['start', 'pause', 'end', 'fastForward', 'keyFramesBackward', 'seek', 'keyFrames'] as const;
/** Bytes of one 0x1205 resource. */
export const RESOURCE_BYTES = 28;

/** Times are ISO UTC; null for the zeros that mean "no bound" (or bytes that are no valid time). */
interface ResourceFilter {
  channel: number;
  begin: string | null;
  end: string | null;
  /** Bits 0–31 of the 64-bit alarm flags: the 808 alarm flags. */
  alarmFlags: number;
  /** Bits 32–63: the 1078 video alarms. */
  videoAlarmFlags: number;
  resourceType: number;
  stream: number;
  storage: number;
}

export type ResourceQueryBody = ResourceFilter;

export interface VideoResource extends ResourceFilter {
  size: number;
}

export interface ResourceListBody {
  replySerial: number;
  resources: VideoResource[];
}

function readFilter(r: BodyReader, tz: number): ResourceFilter {
  const channel = r.u8('channel');
  const begin = r.time('begin', tz);
  const end = r.time('end', tz);
  const videoAlarmFlags = r.u32('videoAlarmFlags');
  return {
    channel,
    begin,
    end,
    alarmFlags: r.u32('alarmFlags'),
    videoAlarmFlags,
    resourceType: r.u8('resourceType'),
    stream: r.u8('stream'),
    storage: r.u8('storage'),
  };
}

function writeFilter(w: ByteWriter, b: ResourceFilter, tz: number): ByteWriter {
  w.u8(b.channel);
  putTime(w, b.begin, tz);
  putTime(w, b.end, tz);
  return w
    .u32(b.videoAlarmFlags >>> 0)
    .u32(b.alarmFlags >>> 0)
    .u8(b.resourceType)
    .u8(b.stream)
    .u8(b.storage);
}

export function decodeResourceQuery(p: Buffer, start: number, end: number, tz: number): ResourceQueryBody {
  const r = new BodyReader(p, start, end, '0x9205');
  const body = readFilter(r, tz);
  r.done();
  return body;
}

export function encodeResourceQuery(b: ResourceQueryBody, tz: number): Buffer {
  return writeFilter(new ByteWriter(24), b, tz).finish();
}

export function decodeResourceList(p: Buffer, start: number, end: number, tz: number): ResourceListBody {
  const r = new BodyReader(p, start, end, '0x1205');
  const replySerial = r.u16('replySerial');
  const count = r.u32('count');
  // The count must match the bytes: a list cut short or padded is refused whole.
  if (count * RESOURCE_BYTES !== r.remaining) {
    throw new Jt808DecodeError('BAD_BODY', `0x1205: ${count} resources need ${count * RESOURCE_BYTES} bytes, ${r.remaining} left`);
  }
  const resources: VideoResource[] = [];
  for (let i = 0; i < count; i++) resources.push({ ...readFilter(r, tz), size: r.u32('size') });
  r.done();
  return { replySerial, resources };
}

export function encodeResourceList(b: ResourceListBody, tz: number): Buffer {
  const w = new ByteWriter(6 + b.resources.length * RESOURCE_BYTES).u16(b.replySerial).u32(b.resources.length);
  for (const res of b.resources) writeFilter(w, res, tz).u32(res.size);
  return w.finish();
}

export interface PlaybackRequestBody {
  host: string;
  tcpPort: number;
  udpPort: number;
  channel: number;
  resourceType: number;
  stream: number;
  storage: number;
  /** Index into PLAYBACK_MODES. */
  mode: number;
  /** 0 none, 1–5: ×1, ×2, ×4, ×8, ×16 (fast modes only). */
  speed: number;
  begin: string | null;
  /** null (zeros): to the end of the recording. */
  end: string | null;
}

export function decodePlaybackRequest(p: Buffer, start: number, end: number, tz: number): PlaybackRequestBody {
  const r = new BodyReader(p, start, end, '0x9201');
  const body = {
    host: r.gbk8('host'),
    tcpPort: r.u16('tcpPort'),
    udpPort: r.u16('udpPort'),
    channel: r.u8('channel'),
    resourceType: r.u8('resourceType'),
    stream: r.u8('stream'),
    storage: r.u8('storage'),
    mode: r.u8('mode'),
    speed: r.u8('speed'),
    begin: r.time('begin', tz),
    end: r.time('end', tz),
  };
  r.done();
  return body;
}

export function encodePlaybackRequest(b: PlaybackRequestBody, tz: number): Buffer {
  const w = putGbk8(new ByteWriter(40), b.host, 'host')
    .u16(b.tcpPort)
    .u16(b.udpPort)
    .u8(b.channel)
    .u8(b.resourceType)
    .u8(b.stream)
    .u8(b.storage)
    .u8(b.mode)
    .u8(b.speed);
  putTime(w, b.begin, tz);
  return putTime(w, b.end, tz).finish();
}

export interface PlaybackControlBody {
  channel: number;
  /** Index into PLAYBACK_COMMANDS. */
  command: number;
  /** With commands 3 and 4: 1–5 (×1 … ×16), else 0. */
  speed: number;
  /** With command 5 (seek); null (zeros) otherwise. */
  seekTo: string | null;
}

export function decodePlaybackControl(p: Buffer, start: number, end: number, tz: number): PlaybackControlBody {
  const r = new BodyReader(p, start, end, '0x9202');
  const body = { channel: r.u8('channel'), command: r.u8('command'), speed: r.u8('speed'), seekTo: r.time('seekTo', tz) };
  r.done();
  return body;
}

export function encodePlaybackControl(b: PlaybackControlBody, tz: number): Buffer {
  return putTime(new ByteWriter(9).u8(b.channel).u8(b.command).u8(b.speed), b.seekTo, tz).finish();
}

export interface FtpUploadBody extends ResourceFilter {
  server: string;
  port: number;
  user: string;
  password: string;
  path: string;
  /** Bit 0 Wi-Fi, bit 1 LAN, bit 2 3G/4G: the networks the terminal may upload over. */
  conditions: number;
}

export function decodeFtpUpload(p: Buffer, start: number, end: number, tz: number): FtpUploadBody {
  const r = new BodyReader(p, start, end, '0x9206');
  const server = r.gbk8('server');
  const port = r.u16('port');
  const user = r.gbk8('user');
  const password = r.gbk8('password');
  const path = r.gbk8('path');
  const filter = readFilter(r, tz);
  const body = { server, port, user, password, path, ...filter, conditions: r.u8('conditions') };
  r.done();
  return body;
}

export function encodeFtpUpload(b: FtpUploadBody, tz: number): Buffer {
  const w = putGbk8(new ByteWriter(96), b.server, 'server').u16(b.port);
  putGbk8(w, b.user, 'user');
  putGbk8(w, b.password, 'password');
  putGbk8(w, b.path, 'path');
  return writeFilter(w, b, tz).u8(b.conditions).finish();
}

export interface FtpUploadDoneBody {
  replySerial: number;
  /** 0 uploaded, 1 failed. */
  result: number;
}

export function decodeFtpUploadDone(p: Buffer, start: number, end: number): FtpUploadDoneBody {
  const r = new BodyReader(p, start, end, '0x1206');
  const body = { replySerial: r.u16('replySerial'), result: r.u8('result') };
  r.done();
  return body;
}

export function encodeFtpUploadDone(b: FtpUploadDoneBody): Buffer {
  return new ByteWriter(3).u16(b.replySerial).u8(b.result).finish();
}
