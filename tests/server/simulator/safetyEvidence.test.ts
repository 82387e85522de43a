/**
 * The simulated terminal's active safety: a report carrying an ADAS or DSM alarm with three
 * attachments (a JPEG, the test clip, the readings), answered by the platform's 0x9208, uploaded on the attachment link as a real terminal
 * does, and kept whole in the media store tied to the alarm's key.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { AttachmentRequester } from '../../../server/telematics/attachments/requests';
import { AttachmentServer } from '../../../server/telematics/attachments/server';
import { MediaStore } from '../../../server/telematics/media/mediaStore';
import { decode } from 'jpeg-js';
import { CLIP_DIR } from '../../../server/simulator/testClip';
import { drawPicture, simTerminalId, uploadEvidence, withSafetyAlarm } from '../../../server/simulator/safetyEvidence';
import { demoTerminal, startGateway, until, type GatewayHarness } from '../telematics/gateway/harness';

const T0 = Date.parse('2026-11-21T08:00:00Z');
const clip = readFileSync(path.join(CLIP_DIR, 'testClip.h264'));

describe('the simulator’s active safety alarms and their evidence', () => {
  let h: GatewayHarness;
  let server: AttachmentServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sim-evidence-'));
    h = await startGateway('postgres');
    const db = h.s.database.db;
    const log = pino({ level: 'silent' });
    server = new AttachmentServer({ db, media: new MediaStore(db, dir), safety: h.gateway.safety, log });
    const port = await server.listen(0, '127.0.0.1');
    h.gateway.attachments = new AttachmentRequester({ db, host: '127.0.0.1', port, log });
  });
  afterAll(async () => {
    await server.close();
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('draws a picture a browser shows: a 96×64 JPEG of the road with the vehicle ahead in red', () => {
    const jpeg = drawPicture(3);
    const { width, height, data } = decode(jpeg, { useTArray: true });
    expect([width, height]).toEqual([96, 64]);
    const at = (x: number, y: number) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
    const [r, g, b] = at(46, 37); // the vehicle ahead
    expect(r).toBeGreaterThan(150);
    expect(Math.max(g, b)).toBeLessThan(90);
    expect(at(5, 5)[2]).toBeGreaterThan(200); // the sky
  });

  it('raises ADAS and DSM alarms by the pick, and uploads the three files the platform asks for', async () => {
    const phone = demoTerminal(13);
    const base = { time: T0, latitude: 31.2, longitude: 121.4, speed: 55, status: { accOn: true, fixed: true } };
    expect(withSafetyAlarm(base, phone, 1, 0.1).extras?.adas).toMatchObject({ type: 1, level: 2, identification: { attachments: 3 } });
    expect(withSafetyAlarm(base, phone, 2, 0.6).extras?.dsm).toMatchObject({ type: 2, level: 1 });

    const t = h.terminal(phone);
    const uploads: Promise<void>[] = [];
    t.on('attachmentRequest', (body: Buffer) => uploads.push(uploadEvidence(body, phone, 7, 5000)));
    await t.connect();
    t.report(withSafetyAlarm(base, phone, 3, 0.7));
    await until(() => uploads.length === 1);
    await uploads[0];
    const key = `${simTerminalId(phone)}-261121160000-0`;
    const rows = await h.s.database.db
      .selectFrom('alarm_attachment')
      .select(['file_name', 'file_type', 'sha256', 'bytes'])
      .where('alarm_key', '=', key)
      .orderBy('file_type')
      .execute();
    expect(rows.map((r) => [r.file_name.replace(/_[0-9a-f]{32}\./, '_N.'), r.file_type, Number(r.bytes)])).toEqual([
      ['00_64_6401_0_N.jpg', 0, drawPicture(7).length],
      ['02_64_6401_1_N.h264', 2, clip.length],
      ['03_64_6401_2_N.txt', 3, expect.any(Number)],
    ]);
    const picture = await readFile(path.join(dir, rows[0].sha256.slice(0, 2), rows[0].sha256));
    expect(picture.equals(drawPicture(7))).toBe(true);
    const video = await readFile(path.join(dir, rows[1].sha256.slice(0, 2), rows[1].sha256));
    expect(video.equals(clip)).toBe(true);
    const request = await h.s.database.db
      .selectFrom('attachment_request')
      .select('completed_at')
      .where('alarm_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(request.completed_at).not.toBeNull();
    t.destroy();
  });
});
