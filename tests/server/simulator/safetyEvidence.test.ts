/**
 * The simulated terminal's active safety: a report carrying an ADAS or DSM alarm with two
 * attachments, answered by the platform's 0x9208, uploaded on the attachment link as a real terminal
 * does, and kept whole in the media store tied to the alarm's key.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { AttachmentRequester } from '../../../server/telematics/attachments/requests';
import { AttachmentServer } from '../../../server/telematics/attachments/server';
import { MediaStore } from '../../../server/telematics/media/mediaStore';
import { drawPicture, simTerminalId, uploadEvidence, withSafetyAlarm } from '../../../server/simulator/safetyEvidence';
import { demoTerminal, startGateway, until, type GatewayHarness } from '../telematics/gateway/harness';

const T0 = Date.parse('2026-11-21T08:00:00Z');

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

  it('draws a picture a browser shows: a 96×64 24-bit BMP', () => {
    const bmp = drawPicture(3);
    expect(bmp.toString('latin1', 0, 2)).toBe('BM');
    expect(bmp.readUInt32LE(2)).toBe(bmp.length);
    expect([bmp.readInt32LE(18), bmp.readInt32LE(22), bmp.readUInt16LE(28)]).toEqual([96, 64, 24]);
    expect(bmp.length).toBe(54 + 96 * 64 * 3);
  });

  it('raises ADAS and DSM alarms by the pick, and uploads the two files the platform asks for', async () => {
    const phone = demoTerminal(13);
    const base = { time: T0, latitude: 31.2, longitude: 121.4, speed: 55, status: { accOn: true, fixed: true } };
    expect(withSafetyAlarm(base, phone, 1, 0.1).extras?.adas).toMatchObject({ type: 1, level: 2, identification: { attachments: 2 } });
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
      ['00_64_6401_0_N.bmp', 0, 54 + 96 * 64 * 3],
      ['03_64_6401_1_N.txt', 3, expect.any(Number)],
    ]);
    const picture = await readFile(path.join(dir, rows[0].sha256.slice(0, 2), rows[0].sha256));
    expect(picture.equals(drawPicture(7))).toBe(true);
    const request = await h.s.database.db
      .selectFrom('attachment_request')
      .select('completed_at')
      .where('alarm_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(request.completed_at).not.toBeNull();
    t.destroy();
  });
});
