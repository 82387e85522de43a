/**
 * Multimedia (JT/T 808-2013/2019 §8.52–8.61):
 *   0x0800 event        mediaId DWORD, type BYTE, format BYTE, event BYTE, channel BYTE
 *   0x0801 data upload  the same 8 bytes, [2013+: 0x0200 basic location, 28 bytes], data
 *   0x8800 data answer  mediaId DWORD, [count BYTE, package ids WORD×count] (the ones to send again)
 *   0x8801 take photo   channel BYTE, command WORD (0 stop, 0xFFFF record, n photos), interval WORD s,
 *                       save BYTE (1 keep on the terminal, 0 upload), resolution BYTE, quality BYTE 1–10,
 *                       brightness BYTE, contrast BYTE, saturation BYTE, chroma BYTE
 *   0x0805 photo answer replySerial WORD, result BYTE (0 ok, 1 failed, 2 channel unsupported),
 *                       [result 0: count WORD, mediaId DWORD×count]
 *   0x8802 search       type BYTE, channel BYTE, event BYTE, begin BCD[6], end BCD[6]
 *   0x0802 search answer replySerial WORD, count WORD, {mediaId DWORD, type, channel, event, location 28}×count
 *   0x8803 upload stored type, channel, event, begin, end, delete BYTE
 *   0x8804 record sound command BYTE (0 stop, 1 start), seconds WORD, save BYTE, sample rate BYTE
 *   0x8805 upload one   mediaId DWORD, delete BYTE
 * The 2011 layout of 0x0801 has no location. Channel 0 in a search means every channel.
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { decodeLocation, LOCATION_FIXED_BYTES, writeLocation, type LocationBody, type LocationInput } from './location';
import { putTime } from './write';

// The type and event codes, shared with the console (its media filters).
export { MEDIA_EVENTS, MEDIA_TYPES } from '../../../../schemas/kit/media';
export const MEDIA_FORMATS = ['jpeg', 'tif', 'mp3', 'wav', 'wmv'] as const;
/** 0x8801 resolution codes 1–8, as width × height. */
export const PHOTO_RESOLUTIONS: Readonly<Record<number, string>> = {
  1: '320x240',
  2: '640x480',
  3: '800x600',
  4: '1024x768',
  5: '176x144',
  6: '352x288',
  7: '704x288',
  8: '704x576',
};
/** 0x8801 command word values that are not a photo count. */
export const PHOTO_STOP = 0;
export const PHOTO_RECORD = 0xffff;

export interface MediaEventBody {
  mediaId: number;
  type: number;
  format: number;
  event: number;
  channel: number;
}

export interface MediaDataBody extends MediaEventBody {
  /** 2013/2019: the terminal's position when it took the media; absent in the 2011 layout. */
  location?: LocationBody;
  data: Buffer;
}

export interface MediaDataInput extends MediaEventBody {
  location?: LocationInput;
  data: Buffer;
}

function readMediaHead(r: BodyReader): MediaEventBody {
  return { mediaId: r.u32('mediaId'), type: r.u8('type'), format: r.u8('format'), event: r.u8('event'), channel: r.u8('channel') };
}

function writeMediaHead(w: ByteWriter, b: MediaEventBody): ByteWriter {
  return w.u32(b.mediaId).u8(b.type).u8(b.format).u8(b.event).u8(b.channel);
}

export function decodeMediaEvent(p: Buffer, start: number, end: number): MediaEventBody {
  const r = new BodyReader(p, start, end, '0x0800');
  const body = readMediaHead(r);
  r.done();
  return body;
}

export function encodeMediaEvent(b: MediaEventBody): Buffer {
  return writeMediaHead(new ByteWriter(8), b).finish();
}

export function decodeMediaData(p: Buffer, start: number, end: number, version: Jt808Version, tz: number): MediaDataBody {
  const r = new BodyReader(p, start, end, '0x0801');
  const head = readMediaHead(r);
  if (version === 2011) return { ...head, data: r.restBytes() };
  const at = r.offset;
  r.bytes(LOCATION_FIXED_BYTES, 'location');
  return { ...head, location: decodeLocation(p, at, at + LOCATION_FIXED_BYTES, tz), data: r.restBytes() };
}

export function encodeMediaData(b: MediaDataInput, version: Jt808Version, tz: number): Buffer {
  const w = writeMediaHead(new ByteWriter(36 + b.data.length), b);
  if (version !== 2011) {
    // Only the fixed part: the standard's basic location carries no additional items.
    const { extras: _extras, ...basic } = b.location ?? { latitude: 0, longitude: 0, time: null };
    writeLocation(w, basic, { tzOffsetMinutes: tz });
  }
  return w.bytes(b.data).finish();
}

export interface MediaDataResponseBody {
  mediaId: number;
  /** Package indexes (from 1) the terminal sends again; empty when everything arrived. */
  missing: number[];
}

export function decodeMediaDataResponse(p: Buffer, start: number, end: number): MediaDataResponseBody {
  const r = new BodyReader(p, start, end, '0x8800');
  const mediaId = r.u32('mediaId');
  // Some platforms send only the id when nothing is missing.
  if (r.remaining === 0) return { mediaId, missing: [] };
  const count = r.u8('count');
  const missing: number[] = [];
  for (let i = 0; i < count; i++) missing.push(r.u16(`package id ${i + 1}`));
  r.done();
  return { mediaId, missing };
}

export function encodeMediaDataResponse(b: MediaDataResponseBody): Buffer {
  const w = new ByteWriter(5 + 2 * b.missing.length).u32(b.mediaId).u8(b.missing.length);
  for (const id of b.missing) w.u16(id);
  return w.finish();
}

export interface TakePhotoBody {
  channel: number;
  /** 0 stop, 0xFFFF record video, otherwise the number of photos. */
  command: number;
  /** Seconds between photos, or the recording's length. */
  interval: number;
  /** 1 keep on the terminal, 0 upload at once. */
  save: number;
  resolution: number;
  /** 1 (best) .. 10. */
  quality: number;
  brightness: number;
  contrast: number;
  saturation: number;
  chroma: number;
}

export function decodeTakePhoto(p: Buffer, start: number, end: number): TakePhotoBody {
  const r = new BodyReader(p, start, end, '0x8801');
  const body: TakePhotoBody = {
    channel: r.u8('channel'),
    command: r.u16('command'),
    interval: r.u16('interval'),
    save: r.u8('save'),
    resolution: r.u8('resolution'),
    quality: r.u8('quality'),
    brightness: r.u8('brightness'),
    contrast: r.u8('contrast'),
    saturation: r.u8('saturation'),
    chroma: r.u8('chroma'),
  };
  r.done();
  return body;
}

export function encodeTakePhoto(b: TakePhotoBody): Buffer {
  return new ByteWriter(12)
    .u8(b.channel)
    .u16(b.command)
    .u16(b.interval)
    .u8(b.save)
    .u8(b.resolution)
    .u8(b.quality)
    .u8(b.brightness)
    .u8(b.contrast)
    .u8(b.saturation)
    .u8(b.chroma)
    .finish();
}

export const TAKE_PHOTO_RESULTS = ['ok', 'failed', 'channelUnsupported'] as const;

export interface TakePhotoResponseBody {
  replySerial: number;
  result: number;
  /** The ids of the media taken (result 0 only). */
  mediaIds: number[];
}

export function decodeTakePhotoResponse(p: Buffer, start: number, end: number): TakePhotoResponseBody {
  const r = new BodyReader(p, start, end, '0x0805');
  const replySerial = r.u16('replySerial');
  const result = r.u8('result');
  const mediaIds: number[] = [];
  // Terminals that failed send no list; some send a zero count anyway.
  if (result === 0 || r.remaining > 0) {
    const count = r.u16('count');
    for (let i = 0; i < count; i++) mediaIds.push(r.u32(`mediaId ${i + 1}`));
  }
  r.done();
  return { replySerial, result, mediaIds };
}

export function encodeTakePhotoResponse(b: TakePhotoResponseBody): Buffer {
  const w = new ByteWriter(5 + 4 * b.mediaIds.length).u16(b.replySerial).u8(b.result);
  if (b.result === 0 || b.mediaIds.length > 0) {
    w.u16(b.mediaIds.length);
    for (const id of b.mediaIds) w.u32(id);
  }
  return w.finish();
}

export interface MediaSearchBody {
  type: number;
  /** 0: every channel. */
  channel: number;
  event: number;
  /** ISO UTC, or null for "no bound" (zeros on the wire). */
  begin: string | null;
  end: string | null;
}

function readSearch(r: BodyReader, tz: number): MediaSearchBody {
  return { type: r.u8('type'), channel: r.u8('channel'), event: r.u8('event'), begin: r.time('begin', tz), end: r.time('end', tz) };
}

function writeSearch(w: ByteWriter, b: MediaSearchBody, tz: number): ByteWriter {
  w.u8(b.type).u8(b.channel).u8(b.event);
  putTime(w, b.begin, tz);
  return putTime(w, b.end, tz);
}

export function decodeMediaSearch(p: Buffer, start: number, end: number, tz: number): MediaSearchBody {
  const r = new BodyReader(p, start, end, '0x8802');
  const body = readSearch(r, tz);
  r.done();
  return body;
}

export function encodeMediaSearch(b: MediaSearchBody, tz: number): Buffer {
  return writeSearch(new ByteWriter(15), b, tz).finish();
}

export interface StoredMediaUploadBody extends MediaSearchBody {
  /** 1: the terminal deletes what it uploaded. */
  delete: number;
}

export function decodeStoredMediaUpload(p: Buffer, start: number, end: number, tz: number): StoredMediaUploadBody {
  const r = new BodyReader(p, start, end, '0x8803');
  const body = { ...readSearch(r, tz), delete: r.u8('delete') };
  r.done();
  return body;
}

export function encodeStoredMediaUpload(b: StoredMediaUploadBody, tz: number): Buffer {
  return writeSearch(new ByteWriter(16), b, tz).u8(b.delete).finish();
}

export interface MediaSearchItem {
  mediaId: number;
  type: number;
  channel: number;
  event: number;
  location: LocationBody;
}

export interface MediaSearchResponseBody {
  replySerial: number;
  items: MediaSearchItem[];
}

export interface MediaSearchResponseInput {
  replySerial: number;
  items: Array<Omit<MediaSearchItem, 'location'> & { location: LocationInput }>;
}

export function decodeMediaSearchResponse(p: Buffer, start: number, end: number, tz: number): MediaSearchResponseBody {
  const r = new BodyReader(p, start, end, '0x0802');
  const replySerial = r.u16('replySerial');
  const count = r.u16('count');
  const items: MediaSearchItem[] = [];
  for (let i = 0; i < count; i++) {
    const head = { mediaId: r.u32('mediaId'), type: r.u8('type'), channel: r.u8('channel'), event: r.u8('event') };
    const at = r.offset;
    r.bytes(LOCATION_FIXED_BYTES, `location ${i + 1}`);
    items.push({ ...head, location: decodeLocation(p, at, at + LOCATION_FIXED_BYTES, tz) });
  }
  r.done();
  return { replySerial, items };
}

export function encodeMediaSearchResponse(b: MediaSearchResponseInput, tz: number): Buffer {
  const w = new ByteWriter(4 + 35 * b.items.length).u16(b.replySerial).u16(b.items.length);
  for (const item of b.items) {
    w.u32(item.mediaId).u8(item.type).u8(item.channel).u8(item.event);
    const { extras: _extras, ...basic } = item.location;
    writeLocation(w, basic, { tzOffsetMinutes: tz });
  }
  return w.finish();
}

export interface RecordSoundBody {
  /** 0 stop, 1 start. */
  command: number;
  /** 0: until stopped. */
  seconds: number;
  save: number;
  /** 0 8 kHz, 1 11 kHz, 2 23 kHz, 3 32 kHz. */
  sampleRate: number;
}

export function decodeRecordSound(p: Buffer, start: number, end: number): RecordSoundBody {
  const r = new BodyReader(p, start, end, '0x8804');
  const body = { command: r.u8('command'), seconds: r.u16('seconds'), save: r.u8('save'), sampleRate: r.u8('sampleRate') };
  r.done();
  return body;
}

export function encodeRecordSound(b: RecordSoundBody): Buffer {
  return new ByteWriter(5).u8(b.command).u16(b.seconds).u8(b.save).u8(b.sampleRate).finish();
}

export interface SingleMediaUploadBody {
  mediaId: number;
  delete: number;
}

export function decodeSingleMediaUpload(p: Buffer, start: number, end: number): SingleMediaUploadBody {
  const r = new BodyReader(p, start, end, '0x8805');
  const body = { mediaId: r.u32('mediaId'), delete: r.u8('delete') };
  r.done();
  return body;
}

export function encodeSingleMediaUpload(b: SingleMediaUploadBody): Buffer {
  return new ByteWriter(5).u32(b.mediaId).u8(b.delete).finish();
}
