/**
 * The active safety attachment service over real TCP: a DSM alarm announcing attachments gets a
 * 0x9208 on the main link; the terminal uploads on the attachment port (0x1210, 0x1211, data frames,
 * 0x1212 → 0x9212); a cut upload resumes on a new connection with only the missing range; bad input
 * is refused with its reason logged and nothing stored.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encodeFrame, MsgId, type DecodedMessage, type LocationInput } from '../../../../server/telematics/jt808/codec';
import type { DsmInput } from '../../../../server/telematics/jt808/messages/activeSafety';
import {
  ATTACHMENT_MSG,
  decodeFileDoneAnswer,
  decodeUploadRequest,
  encodeAttachmentList,
  encodeDataFrame,
  encodeFileInfo,
  type AttachmentFile,
} from '../../../../server/telematics/jt808/messages/attachmentUpload';
import { AttachmentRequester } from '../../../../server/telematics/attachments/requests';
import { AttachmentServer } from '../../../../server/telematics/attachments/server';
import { MediaStore } from '../../../../server/telematics/media/mediaStore';
import { sql } from 'kysely';
import { loadConfig } from '../../../../server/config';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from '../gateway/harness';

const T0 = Date.parse('2026-11-21T08:00:00Z');

interface Logged {
  reason?: string;
  [k: string]: unknown;
}

function collectingLog() {
  const warned: Logged[] = [];
  const noop = () => undefined;
  return { warned, log: { info: noop, debug: noop, warn: (o: object) => void warned.push(o as Logged) } };
}

const dsm = (m: number, seq: number, attachments: number): DsmInput => ({
  alarmId: 500 + m,
  flag: 0,
  type: 2,
  level: 1,
  fatigueDegree: 0,
  speed: 50,
  altitude: 3,
  latitude: 31.2,
  longitude: 121.4,
  time: new Date(T0 + m * 60_000).toISOString(),
  vehicleStatus: 1,
  identification: { terminalId: 'AT00001', timeBcd: bcdAt(m), sequence: seq, attachments },
});

/** The terminal's clock (GMT+8) at minute m, as BCD YYMMDDhhmmss. */
function bcdAt(m: number): string {
  const d = new Date(T0 + m * 60_000 + 8 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}00`;
}

const report = (m: number, item: DsmInput): LocationInput => ({
  latitude: 31.2,
  longitude: 121.4,
  speed: 50,
  status: { accOn: true, fixed: true },
  time: T0 + m * 60_000,
  extras: { dsm: item },
});

/** Deterministic bytes of a file. */
const content = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

const opaqueBody = (m: DecodedMessage): Buffer => {
  if (m.opaque !== 'unknown') throw new Error(`not an opaque message: ${m.msgId.toString(16)}`);
  return m.body;
};
const result = (m: DecodedMessage) => (m.msgId === MsgId.PlatformResponse && m.opaque === undefined ? m.body.result : null);

describe.each(BACKENDS)('the attachment service on %s', (backend) => {
  let h: GatewayHarness;
  let server: AttachmentServer;
  let port: number;
  let dir: string;
  const { warned, log } = collectingLog();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'attachments-'));
    h = await startGateway(backend, { app: { mediaDir: dir } });
    const db = h.s.database.db;
    server = new AttachmentServer({ db, media: new MediaStore(db, dir), safety: h.gateway.safety, log });
    port = await server.listen(0, '127.0.0.1');
    h.gateway.attachments = new AttachmentRequester({ db, host: '127.0.0.1', port, log });
  });
  afterAll(async () => {
    await server.close();
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function online(phone: string): Promise<RawClient> {
    const raw = await RawClient.open(h.port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 32, city: 100, makerId: 'VEND', model: 'ADAS-X', terminalId: 'AT00001', plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode) throw new Error('not registered');
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    expect(result((await raw.waitFor(2))[1])).toBe(0);
    return raw;
  }

  /** Sends an alarm with attachments and returns the 0x9208 the platform answers it with. */
  async function alarmWithAttachments(raw: RawClient, phone: string, m: number, attachments: number) {
    const before = raw.received.length;
    raw.send(phone, { msgId: MsgId.Location, body: report(m, dsm(m, 0, attachments)) });
    await until(() => raw.received.some((x, i) => i >= before && x.msgId === ATTACHMENT_MSG.uploadRequest));
    const req = raw.received.find((x, i) => i >= before && x.msgId === ATTACHMENT_MSG.uploadRequest)!;
    return decodeUploadRequest(opaqueBody(req), 'jsatl12', 480);
  }

  let serial = 0;
  const frame = (phone: string, msgId: number, body: Buffer) => encodeFrame({ msgId, phone, serial: ++serial }, body);
  const list = (
    phone: string,
    alarmNumber: string,
    identification: { timeBcd: string; sequence: number },
    files: AttachmentFile[],
    infoType = 0,
  ) =>
    frame(
      phone,
      ATTACHMENT_MSG.list,
      encodeAttachmentList(
        {
          terminalId: 'AT00001',
          identification: { terminalId: 'AT00001', ...identification, attachments: files.length },
          alarmNumber,
          infoType,
          files,
        },
        'jsatl12',
      ),
    );

  const rowsOf = async (alarmKey: string) =>
    await h.s.database.db
      .selectFrom('alarm_attachment')
      .select(['file_name', 'file_type', 'sha256', 'bytes'])
      .where('alarm_key', '=', alarmKey)
      .orderBy('file_name')
      .execute();

  it('asks for the files of an alarm, keeps each whole file once, and resumes a cut upload', async () => {
    const phone = demoTerminal(11);
    const main = await online(phone);
    const req = await alarmWithAttachments(main, phone, 1, 2);
    expect(req).toMatchObject({ host: '127.0.0.1', tcpPort: port, identification: { terminalId: 'AT00001', sequence: 0, attachments: 2 } });
    expect(req.alarmNumber).toMatch(/^[0-9a-f]{32}$/);
    const key = `AT00001-${req.identification.timeBcd}-0`;
    const photo = { name: `00_65_6502_0_${req.alarmNumber}.jpg`, size: 3000 };
    const clip = { name: `02_65_6502_1_${req.alarmNumber}.mp4`, size: 100_000 };
    const photoBytes = content(photo.size, 1);
    const clipBytes = content(clip.size, 2);

    const a = await RawClient.open(port);
    a.sendBytes(list(phone, req.alarmNumber, req.identification, [photo, clip]));
    expect(result((await a.waitFor(1))[0])).toBe(0);
    a.sendBytes(frame(phone, ATTACHMENT_MSG.fileInfo, encodeFileInfo({ ...photo, type: 0 })));
    expect(result((await a.waitFor(2))[1])).toBe(0);
    for (let o = 0; o < photo.size; o += 1024) a.sendBytes(encodeDataFrame(photo.name, o, photoBytes.subarray(o, o + 1024)));
    a.sendBytes(frame(phone, ATTACHMENT_MSG.fileDone, encodeFileInfo({ ...photo, type: 0 })));
    const [, , done] = await a.waitFor(3);
    expect(done.msgId).toBe(ATTACHMENT_MSG.fileDoneAnswer);
    expect(decodeFileDoneAnswer(opaqueBody(done))).toEqual({ name: photo.name, type: 0, result: 0, missing: [] });

    // The clip: half of it, then the connection is cut.
    a.sendBytes(frame(phone, ATTACHMENT_MSG.fileInfo, encodeFileInfo({ ...clip, type: 2 })));
    expect(result((await a.waitFor(4))[3])).toBe(0);
    for (let o = 0; o < 50_000; o += 10_000) a.sendBytes(encodeDataFrame(clip.name, o, clipBytes.subarray(o, o + 10_000)));
    a.sendBytes(frame(phone, ATTACHMENT_MSG.fileDone, encodeFileInfo({ ...clip, type: 2 })));
    const partial = decodeFileDoneAnswer(opaqueBody((await a.waitFor(5))[4]));
    expect(partial).toEqual({ name: clip.name, type: 2, result: 1, missing: [{ offset: 50_000, length: 50_000 }] });
    a.destroy();
    expect((await rowsOf(key)).map((r) => r.file_name)).toEqual([photo.name]);

    // A new connection goes on: the list again (sent again, info type 1), the file, only what is missing.
    const b = await RawClient.open(port);
    b.sendBytes(list(phone, req.alarmNumber, req.identification, [photo, clip], 1));
    b.sendBytes(frame(phone, ATTACHMENT_MSG.fileInfo, encodeFileInfo({ ...clip, type: 2 })));
    b.sendBytes(frame(phone, ATTACHMENT_MSG.fileDone, encodeFileInfo({ ...clip, type: 2 })));
    const resumed = await b.waitFor(3);
    expect(resumed.slice(0, 2).map(result)).toEqual([0, 0]);
    expect(decodeFileDoneAnswer(opaqueBody(resumed[2])).missing).toEqual([{ offset: 50_000, length: 50_000 }]);
    b.sendBytes(encodeDataFrame(clip.name, 50_000, clipBytes.subarray(50_000)));
    b.sendBytes(frame(phone, ATTACHMENT_MSG.fileDone, encodeFileInfo({ ...clip, type: 2 })));
    expect(decodeFileDoneAnswer(opaqueBody((await b.waitFor(4))[3]))).toMatchObject({ result: 0, missing: [] });
    b.destroy();

    const rows = await rowsOf(key);
    const sha = (x: Buffer) => createHash('sha256').update(x).digest('hex');
    expect(rows.map((r) => [r.file_name, r.file_type, r.sha256, Number(r.bytes)])).toEqual([
      [photo.name, 0, sha(photoBytes), 3000],
      [clip.name, 2, sha(clipBytes), 100_000],
    ]);
    // In the media store, content-addressed and whole.
    expect((await readFile(path.join(dir, sha(clipBytes).slice(0, 2), sha(clipBytes)))).equals(clipBytes)).toBe(true);
    const request = await h.s.database.db
      .selectFrom('attachment_request')
      .selectAll()
      .where('alarm_number', '=', req.alarmNumber)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({
      alarm_key: key,
      terminal_id: await terminalIdOf(h.s, phone),
      attachments: 2,
      completed_at: expect.any(Date),
    });
    expect(warned).toEqual([]);
    main.destroy();

    // Evidence in the alarm centre: the alarm's files, inline or as a download, in its organisation only.
    const owner = (
      await sql<{ vehicleId: number; orgCode: string }>`
        SELECT v.id AS "vehicleId", o.code AS "orgCode" FROM vehicle v JOIN organisation o ON o.id = v.org_id
        JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(h.s.database.db)
    ).rows[0];
    const alarm = (
      await sql<{ id: number }>`INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, detail)
        VALUES (${owner.vehicleId}, 'PhoneCall', 'safety', 'medium', ${key}, ${new Date(T0)}, ${new Date(T0)}, ${new Date(T0)},
          ${JSON.stringify({ sources: ['safety:dsm'], safety: { key } })}::jsonb) RETURNING id`.execute(h.s.database.db)
    ).rows[0].id;
    const plain = (
      await sql<{ id: number }>`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, end_time, fired_at)
        VALUES (${owner.vehicleId}, 'Crash', 'terminal', 'high', ${new Date(T0)}, ${new Date(T0)}, ${new Date(T0)}) RETURNING id`.execute(
        h.s.database.db,
      )
    ).rows[0].id;
    const get = (token: string | null, url: string) =>
      h.s.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const inside = await h.s.memberToken(owner.orgCode, 'orgUser');
    const outside = await h.s.memberToken(owner.orgCode.startsWith('HN') ? 'HD' : 'HN', 'administrator');
    const evidence = await get(inside, `/api/vehicle/alarm/${alarm}/evidence`);
    expect(evidence.statusCode).toBe(200);
    expect(evidence.json().data).toEqual([
      {
        id: expect.any(Number),
        name: photo.name,
        kind: 'picture',
        contentType: 'image/jpeg',
        bytes: 3000,
        receivedAt: expect.any(String),
        takenAt: null,
        source: 'attachment',
        url: expect.any(String),
      },
      {
        id: expect.any(Number),
        name: clip.name,
        kind: 'video',
        contentType: 'video/mp4',
        bytes: 100_000,
        receivedAt: expect.any(String),
        takenAt: null,
        source: 'attachment',
        url: expect.any(String),
      },
    ]);
    const [photoUrl, clipUrl] = evidence.json().data.map((x: { url: string }) => x.url);
    const shown = await get(inside, photoUrl);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.headers['content-disposition']).toBe(`inline; filename="${photo.name}"`);
    expect(shown.rawPayload.equals(photoBytes)).toBe(true);
    const downloaded = await get(inside, `${clipUrl}?download=true`);
    expect(downloaded.headers['content-disposition']).toBe(`attachment; filename="${clip.name}"`);
    expect(downloaded.rawPayload.equals(clipBytes)).toBe(true);
    expect((await get(inside, `/api/vehicle/alarm/${plain}/evidence`)).json()).toEqual({ data: [] });
    for (const url of [`/api/vehicle/alarm/${alarm}/evidence`, photoUrl, clipUrl]) {
      expect((await get(outside, url)).statusCode).toBe(404);
      expect((await get(null, url)).statusCode).toBe(401);
    }
    expect((await get(inside, `${photoUrl}?download=maybe`)).statusCode).toBe(400);
  });

  describe('bad input', () => {
    let phone: string;
    let main: RawClient;
    beforeAll(async () => {
      phone = demoTerminal(12);
      main = await online(phone);
    });
    afterAll(() => main.destroy());

    /** Opens a connection, sends the frames, expects the connection closed and the reason logged. */
    async function refused(frames: Buffer[], reason: string, answers: Array<number | null> = [1]): Promise<void> {
      warned.length = 0;
      const c = await RawClient.open(port);
      for (const f of frames) c.sendBytes(f);
      await c.waitClosed();
      expect(c.received.map(result).slice(-answers.length)).toEqual(answers);
      expect(warned.map((w) => w.reason)).toEqual([reason]);
    }

    it('refuses a 2 GB declared file, a path in a file name and an alarm number never issued, storing nothing', async () => {
      const req = await alarmWithAttachments(main, phone, 10, 1);
      // The same report again (a lost acknowledgement): asked again under the same number, one request.
      expect((await alarmWithAttachments(main, phone, 10, 1)).alarmNumber).toBe(req.alarmNumber);
      const requests = await h.s.database.db
        .selectFrom('attachment_request')
        .select('alarm_number')
        .where('alarm_key', '=', `AT00001-${req.identification.timeBcd}-0`)
        .where('terminal_id', '=', await terminalIdOf(h.s, phone))
        .execute();
      expect(requests).toEqual([{ alarm_number: req.alarmNumber }]);
      const key = `AT00001-${req.identification.timeBcd}-0`;
      await refused([list(phone, req.alarmNumber, req.identification, [{ name: 'big.mp4', size: 2 ** 31 }])], 'fileTooLarge');
      await refused([list(phone, req.alarmNumber, req.identification, [{ name: '../../etc/passwd', size: 10 }])], 'badFileName');
      await refused([list(phone, req.alarmNumber, req.identification, [{ name: 'a/b.jpg', size: 10 }])], 'badFileName');
      await refused([list(phone, 'f'.repeat(32), req.identification, [{ name: 'ok.jpg', size: 10 }])], 'unknownAlarmNumber');
      // Another identification than the one the number was issued for.
      await refused(
        [list(phone, req.alarmNumber, { ...req.identification, sequence: 9 }, [{ name: 'ok.jpg', size: 10 }])],
        'identificationMismatch',
      );
      // Data for a file no 0x1211 announced.
      await refused(
        [list(phone, req.alarmNumber, req.identification, [{ name: 'ok.jpg', size: 10 }]), encodeDataFrame('ok.jpg', 0, Buffer.alloc(10))],
        'dataForUnannouncedFile',
        [0],
      );
      expect(await rowsOf(key)).toEqual([]);
    });

    it('refuses a bad offset, drops the part received so far, and stores nothing half', async () => {
      const stored = async () => (await readdir(dir)).filter((d) => d !== 'partial').sort();
      const before = await stored();
      const req = await alarmWithAttachments(main, phone, 20, 1);
      const key = `AT00001-${req.identification.timeBcd}-0`;
      const file = { name: 'p.jpg', size: 1000 };
      const files = [
        list(phone, req.alarmNumber, req.identification, [file]),
        frame(phone, ATTACHMENT_MSG.fileInfo, encodeFileInfo({ ...file, type: 0 })),
      ];
      await refused(
        [...files, encodeDataFrame(file.name, 0, Buffer.alloc(500, 1)), encodeDataFrame(file.name, 900, Buffer.alloc(200, 2))],
        'badOffset',
        [0, 0],
      );
      expect(await rowsOf(key)).toEqual([]);
      // Nothing of it is kept: a new connection finds the whole file missing.
      const c = await RawClient.open(port);
      for (const f of files) c.sendBytes(f);
      c.sendBytes(frame(phone, ATTACHMENT_MSG.fileDone, encodeFileInfo({ ...file, type: 0 })));
      const got = await c.waitFor(3);
      expect(decodeFileDoneAnswer(opaqueBody(got[2])).missing).toEqual([{ offset: 0, length: 1000 }]);
      c.destroy();
      // Nothing new in the media store.
      expect(await stored()).toEqual(before);
    });

    it('answers bytes that are neither a frame nor file data by closing, with the reason logged', async () => {
      await refused([Buffer.from('GET / HTTP/1.1\r\n\r\n')], 'notAFrame', []);
    });
  });
});

describe('the attachment service settings', () => {
  it('is off unless its port is set, and refuses settings it cannot use', () => {
    expect(loadConfig({}).jt808Attachments).toBeUndefined();
    expect(loadConfig({ JT808_ATTACHMENT_PORT: '7808' }).jt808Attachments).toEqual({
      port: 7808,
      host: null,
      maxFileBytes: 64 * 1024 * 1024,
    });
    expect(
      loadConfig({ JT808_ATTACHMENT_PORT: '7808', JT808_ATTACHMENT_HOST: 'files.example.com', JT808_ATTACHMENT_MAX_MB: '200' })
        .jt808Attachments,
    ).toEqual({
      port: 7808,
      host: 'files.example.com',
      maxFileBytes: 200 * 1024 * 1024,
    });
    expect(() => loadConfig({ JT808_ATTACHMENT_PORT: 'x' })).toThrow(
      'JT808_ATTACHMENT_PORT must be a whole number from 1 to 65535, got "x"',
    );
    expect(() => loadConfig({ JT808_ATTACHMENT_PORT: '7808', JT808_ATTACHMENT_HOST: 'a b' })).toThrow(
      'JT808_ATTACHMENT_HOST must be a host name or address',
    );
    expect(() => loadConfig({ JT808_ATTACHMENT_PORT: '7808', JT808_ATTACHMENT_MAX_MB: '4096' })).toThrow(
      'JT808_ATTACHMENT_MAX_MB must be a whole number from 1 to 2047, got "4096"',
    );
  });
});
