/**
 * The active safety attachment upload (T/JSATL12 §4.5, 苏标; 粤标 widens the terminal id to 30 bytes
 * and the identification to 40):
 *   0x9208 platform → terminal, on the main link: server address (BYTE length + text), TCP port
 *     WORD, UDP port WORD, alarm identification, alarm number BYTE[32] (unique, the platform's),
 *     reserved BYTE[16].
 *   On the attachment link, in JT/T 808 frames:
 *   0x1210 attachment list: terminal id BYTE[7] (粤标 [30]), alarm identification, alarm number
 *     BYTE[32], info type BYTE (0 normal, 1 sent again), count BYTE, then per file: name (BYTE
 *     length + text), size DWORD.
 *   0x1211 file info and 0x1212 upload complete: name (BYTE length + text), type BYTE (0 picture,
 *     1 audio, 2 video, 3 text, 4 other), size DWORD.
 *   0x9212 platform's answer to 0x1212: name, type BYTE, result BYTE (0 complete, 1 parts missing),
 *     count BYTE, then per missing part offset DWORD, length DWORD.
 *   File data, unframed: 0x30 0x31 0x63 0x64, name BYTE[50] (NUL-padded), offset DWORD, length
 *     DWORD, then that many bytes.
 * These are not in the main codec's message table: only the attachment service reads them, and the
 * identification's width depends on the terminal's standard, which that service knows.
 */

import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';
import { readIdentification, writeIdentification, type AlarmIdentification, type SafetyStandard } from './activeSafety';

export const ATTACHMENT_MSG = {
  uploadRequest: 0x9208,
  list: 0x1210,
  fileInfo: 0x1211,
  fileDone: 0x1212,
  fileDoneAnswer: 0x9212,
} as const;

/** The 4 bytes that open a file data frame. */
export const DATA_MAGIC = 0x30316364;
/** Magic, name[50], offset, length. */
export const DATA_HEADER_BYTES = 4 + 50 + 4 + 4;

export const FILE_TYPES = ['picture', 'audio', 'video', 'text', 'other'] as const;

const ALARM_NUMBER_BYTES = 32;
const TERMINAL_ID_BYTES: Record<SafetyStandard, number> = { jsatl12: 7, guangdong: 30 };

export interface UploadRequest {
  host: string;
  tcpPort: number;
  udpPort: number;
  identification: Omit<AlarmIdentification, 'time'>;
  /** 32 ASCII characters, unique per request. */
  alarmNumber: string;
}

export function encodeUploadRequest(x: UploadRequest, standard: SafetyStandard): Buffer {
  const w = new ByteWriter(96);
  const host = Buffer.from(x.host, 'latin1');
  if (host.length > 255) throw new Jt808EncodeError('TOO_LONG', `server address: ${host.length} bytes`);
  w.u8(host.length).bytes(host).u16(x.tcpPort).u16(x.udpPort);
  writeIdentification(w, x.identification, standard);
  w.fixed(Buffer.from(x.alarmNumber, 'latin1'), ALARM_NUMBER_BYTES, 'alarm number');
  return w.bytes(Buffer.alloc(16)).finish();
}

export function decodeUploadRequest(
  p: Buffer,
  standard: SafetyStandard,
  tz: number,
): UploadRequest & { identification: AlarmIdentification } {
  const r = new BodyReader(p, 0, p.length, '0x9208');
  const host = r.gbk8('server address');
  const tcpPort = r.u16('tcp port');
  const udpPort = r.u16('udp port');
  const identification = readIdentification(r, standard, tz);
  const alarmNumber = r.gbk(ALARM_NUMBER_BYTES, 'alarm number');
  r.hex(16, 'reserved');
  r.done();
  return { host, tcpPort, udpPort, identification, alarmNumber };
}

export interface AttachmentFile {
  name: string;
  size: number;
}

export interface AttachmentList {
  terminalId: string;
  identification: AlarmIdentification;
  alarmNumber: string;
  /** 0 normal, 1 sent again. */
  infoType: number;
  files: AttachmentFile[];
}

export function decodeAttachmentList(p: Buffer, standard: SafetyStandard, tz: number): AttachmentList {
  const r = new BodyReader(p, 0, p.length, '0x1210');
  const terminalId = r.gbk(TERMINAL_ID_BYTES[standard], 'terminal id').trim();
  const identification = readIdentification(r, standard, tz);
  const alarmNumber = r.gbk(ALARM_NUMBER_BYTES, 'alarm number');
  const infoType = r.u8('info type');
  const count = r.u8('count');
  const files: AttachmentFile[] = [];
  for (let k = 0; k < count; k++) files.push({ name: r.gbk8('file name'), size: r.u32('file size') });
  r.done();
  return { terminalId, identification, alarmNumber, infoType, files };
}

export function encodeAttachmentList(
  x: Omit<AttachmentList, 'identification'> & { identification: Omit<AlarmIdentification, 'time'> },
  standard: SafetyStandard,
): Buffer {
  const w = new ByteWriter(128);
  w.fixed(Buffer.from(x.terminalId, 'latin1'), TERMINAL_ID_BYTES[standard], 'terminal id');
  writeIdentification(w, x.identification, standard);
  w.fixed(Buffer.from(x.alarmNumber, 'latin1'), ALARM_NUMBER_BYTES, 'alarm number');
  w.u8(x.infoType).u8(x.files.length);
  for (const f of x.files) {
    const name = Buffer.from(f.name, 'latin1');
    w.u8(name.length).bytes(name).u32(f.size);
  }
  return w.finish();
}

/** 0x1211 and 0x1212. */
export interface FileInfo {
  name: string;
  type: number;
  size: number;
}

export function decodeFileInfo(p: Buffer, what: string): FileInfo {
  const r = new BodyReader(p, 0, p.length, what);
  const info = { name: r.gbk8('file name'), type: r.u8('file type'), size: r.u32('file size') };
  r.done();
  return info;
}

export function encodeFileInfo(x: FileInfo): Buffer {
  const name = Buffer.from(x.name, 'latin1');
  return new ByteWriter(64).u8(name.length).bytes(name).u8(x.type).u32(x.size).finish();
}

export interface Range {
  offset: number;
  length: number;
}

export interface FileDoneAnswer {
  name: string;
  type: number;
  /** 0 complete, 1 parts missing. */
  result: number;
  missing: Range[];
}

export function encodeFileDoneAnswer(x: FileDoneAnswer): Buffer {
  const name = Buffer.from(x.name, 'latin1');
  if (x.missing.length > 255) throw new Jt808EncodeError('TOO_LONG', `${x.missing.length} missing parts`);
  const w = new ByteWriter(64).u8(name.length).bytes(name).u8(x.type).u8(x.result).u8(x.missing.length);
  for (const m of x.missing) w.u32(m.offset).u32(m.length);
  return w.finish();
}

export function decodeFileDoneAnswer(p: Buffer): FileDoneAnswer {
  const r = new BodyReader(p, 0, p.length, '0x9212');
  const name = r.gbk8('file name');
  const type = r.u8('file type');
  const result = r.u8('result');
  const count = r.u8('count');
  const missing: Range[] = [];
  for (let k = 0; k < count; k++) missing.push({ offset: r.u32('offset'), length: r.u32('length') });
  r.done();
  return { name, type, result, missing };
}

export interface DataFrameHeader {
  name: string;
  offset: number;
  length: number;
}

/** The header of a data frame at p[0..62) (the caller checked the magic and the length). */
export function readDataHeader(p: Buffer): DataFrameHeader {
  let e = 4 + 50;
  while (e > 4 && p[e - 1] === 0) e--;
  return { name: p.toString('latin1', 4, e), offset: p.readUInt32BE(54), length: p.readUInt32BE(58) };
}

export function encodeDataFrame(name: string, offset: number, data: Buffer): Buffer {
  return new ByteWriter(DATA_HEADER_BYTES + data.length)
    .u32(DATA_MAGIC)
    .fixed(Buffer.from(name, 'latin1'), 50, 'file name')
    .u32(offset)
    .u32(data.length)
    .bytes(data)
    .finish();
}
