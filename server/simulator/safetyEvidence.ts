/**
 * The simulated fleet's active safety (苏标): now and then a moving vehicle's report carries an
 * ADAS or DSM alarm announcing three attachments; when the platform answers with 0x9208 the terminal
 * uploads them on the attachment link as a real one does (0x1210, 0x1211, data frames, 0x1212,
 * sending again what 0x9212 lists as missing): a picture it draws (a small JPEG: road, lane marks
 * and the vehicle ahead), a short clip (the shipped H.264 test clip, testClip.ts) and a text file
 * with the alarm's readings.
 */

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { encode } from 'jpeg-js';
import { decodePacket, encodeFrame, FrameSplitter, MsgId, type DecodedMessage, type LocationInput } from '../telematics/jt808/codec';
import type { AdasInput, DsmInput } from '../telematics/jt808/messages/activeSafety';
import { CLIP_DIR } from './testClip';
import {
  ATTACHMENT_MSG,
  decodeFileDoneAnswer,
  decodeUploadRequest,
  encodeAttachmentList,
  encodeDataFrame,
  encodeFileInfo,
} from '../telematics/jt808/messages/attachmentUpload';

const CHUNK = 64 * 1024;
/** The files an alarm announces: a picture, a clip and a text (evidenceFiles). */
const EVIDENCE_FILES = 3;
/** The shipped clip, read once (the same bytes for every alarm: stored once, content-addressed). */
let clip: Buffer | null = null;
const testClip = () => (clip ??= fs.readFileSync(path.join(CLIP_DIR, 'testClip.h264')));

/** The terminal id an identification carries: the phone's last 7 digits. */
export const simTerminalId = (phone: string) => phone.slice(-7).padStart(7, '0');

/** YYMMDDhhmmss at GMT+8 (the terminal's clock). */
function bcdTime(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

/**
 * A report with an ADAS (forward collision, lane departure, headway) or DSM (phone, smoking,
 * distraction, fatigue) alarm announcing its attachments; `pick` in [0, 1) chooses which.
 */
export function withSafetyAlarm(report: LocationInput, phone: string, alarmId: number, pick: number): LocationInput {
  const time = new Date(report.time as string | number | Date).getTime();
  const tail = {
    speed: Math.min(255, Math.round(report.speed ?? 0)),
    altitude: Math.max(0, Math.round(report.altitude ?? 0)),
    latitude: report.latitude,
    longitude: report.longitude,
    time: new Date(time).toISOString(),
    vehicleStatus: 1,
    identification: { terminalId: simTerminalId(phone), timeBcd: bcdTime(time), sequence: 0, attachments: EVIDENCE_FILES },
  };
  const level = pick < 0.25 ? 2 : 1;
  if (pick < 0.5) {
    const type = [1, 2, 3][Math.floor(pick * 6)];
    const adas: AdasInput = {
      alarmId,
      flag: 0,
      type,
      level,
      frontSpeed: 40,
      frontDistance: 15,
      departure: type === 2 ? 1 : 0,
      roadSign: 0,
      roadSignValue: 0,
      ...tail,
    };
    return { ...report, extras: { ...report.extras, adas } };
  }
  const type = [2, 3, 4, 1][Math.floor((pick - 0.5) * 8)];
  const dsm: DsmInput = { alarmId, flag: 0, type, level, fatigueDegree: type === 1 ? 6 : 0, ...tail };
  return { ...report, extras: { ...report.extras, dsm } };
}

/** A 96×64 JPEG: sky, road, lane marks and a red vehicle ahead, shifted by `seed`. */
export function drawPicture(seed: number): Buffer {
  const w = 96;
  const h = 64;
  const pixels = Buffer.alloc(w * h * 4, 0xff);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let c = y < 24 ? [135, 206, 235] : [90, 90, 90]; // RGB: sky, road
      if (y >= 24 && Math.abs(x - w / 2) < 1 && (y + seed) % 6 < 3) c = [255, 255, 255];
      const car = Math.abs(x - w / 2 - (seed % 9) + 4) < 10 && y > 30 && y < 44;
      if (car) c = [200, 40, 40];
      pixels.set(c, (y * w + x) * 4);
    }
  return encode({ data: pixels, width: w, height: h }, 75).data;
}

interface SimFile {
  name: string;
  type: number;
  data: Buffer;
}

/** The files of an alarm, named as 苏标 names them (type_channel_alarm_sequence_number.suffix). */
export function evidenceFiles(alarmNumber: string, detail: object, seed: number): SimFile[] {
  return [
    { name: `00_64_6401_0_${alarmNumber}.jpg`, type: 0, data: drawPicture(seed) },
    { name: `02_64_6401_1_${alarmNumber}.h264`, type: 2, data: testClip() },
    { name: `03_64_6401_2_${alarmNumber}.txt`, type: 3, data: Buffer.from(JSON.stringify(detail)) },
  ];
}

/**
 * Uploads the files a 0x9208 asks for, as a terminal does; resolves when every file is answered
 * complete, rejects on a refusal or a closed link.
 */
export async function uploadEvidence(requestBody: Buffer, phone: string, seed: number, timeoutMs = 30_000): Promise<void> {
  const req = decodeUploadRequest(requestBody, 'jsatl12', 480);
  const files = evidenceFiles(req.alarmNumber, { alarm: req.identification, phone }, seed);
  const socket = net.connect({ host: req.host, port: req.tcpPort });
  const splitter = new FrameSplitter();
  let serial = 0;
  const waiting: Array<(m: DecodedMessage) => void> = [];
  const frame = (msgId: number, body: Buffer) => encodeFrame({ msgId, phone, serial: ++serial }, body);
  const next = () =>
    new Promise<DecodedMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${phone}: no answer on the attachment link`)), timeoutMs);
      waiting.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('data', (chunk: Buffer) => {
      for (const p of splitter.push(chunk)) waiting.shift()?.(decodePacket(p));
    });
    const ok = async () => {
      const a = await next();
      if (a.msgId !== MsgId.PlatformResponse || a.opaque !== undefined || a.body.result !== 0)
        throw new Error(`${phone}: attachment upload refused`);
    };
    socket.write(
      frame(
        ATTACHMENT_MSG.list,
        encodeAttachmentList(
          {
            terminalId: simTerminalId(phone),
            identification: req.identification,
            alarmNumber: req.alarmNumber,
            infoType: 0,
            files: files.map((f) => ({ name: f.name, size: f.data.length })),
          },
          'jsatl12',
        ),
      ),
    );
    await ok();
    for (const f of files) {
      const info = encodeFileInfo({ name: f.name, type: f.type, size: f.data.length });
      socket.write(frame(ATTACHMENT_MSG.fileInfo, info));
      await ok();
      let ranges = [{ offset: 0, length: f.data.length }];
      for (let round = 0; ranges.length && round < 3; round++) {
        for (const r of ranges)
          for (let o = r.offset; o < r.offset + r.length; o += CHUNK)
            socket.write(encodeDataFrame(f.name, o, f.data.subarray(o, Math.min(o + CHUNK, r.offset + r.length))));
        socket.write(frame(ATTACHMENT_MSG.fileDone, info));
        const answer = await next();
        if (answer.opaque !== 'unknown' || answer.msgId !== ATTACHMENT_MSG.fileDoneAnswer) throw new Error(`${phone}: no 0x9212`);
        ranges = decodeFileDoneAnswer(answer.body).missing;
      }
    }
  } finally {
    socket.destroy();
  }
}
