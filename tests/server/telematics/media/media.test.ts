/**
 * Photos through the real gateway and database: a photo in 7 packages with 2 lost is asked for
 * again (0x8800 with the list), stored once under the media folder by its SHA-256 with its row,
 * answered 0x8800 with nothing missing, and served only within the vehicle's organisation subtree.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import {
  encodeMessageFrames,
  escapeFrame,
  MsgId,
  unframe,
  xorChecksum,
  type DecodedMessage,
} from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, until, type GatewayHarness } from '../gateway/harness';

const T = '2026-11-21T08:00:00.000Z';
const PACKAGE = 500;

/** A photo's bytes: a JPEG start and end around a pattern, `size` bytes in all. */
function photo(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed) & 0xff;
  b.set([0xff, 0xd8], 0);
  b.set([0xff, 0xd9], size - 2);
  return b;
}

function upload(
  phone: string,
  serial: number,
  mediaId: number,
  data: Buffer,
  { event = 2, channel = 1, time = T }: { event?: number; channel?: number; time?: string } = {},
): Buffer[] {
  return encodeMessageFrames(
    { phone, serial },
    {
      msgId: MsgId.MediaData,
      body: { mediaId, type: 0, format: 0, event, channel, location: { latitude: 31.2, longitude: 121.4, time }, data },
    },
    { maxPacketBody: PACKAGE },
  );
}

const mediaAnswers = (received: DecodedMessage[]) =>
  received.flatMap((r) => (r.msgId === MsgId.MediaDataResponse && r.opaque === undefined ? [r.body] : []));

describe.each(BACKENDS)('media uploads on %s', (backend) => {
  let h: GatewayHarness;
  let dir: string;
  // Opening PGlite takes a while on a loaded machine.
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'media-test-'));
    h = await startGateway(backend, { gateway: { mediaDir: dir }, app: { mediaDir: dir } });
  }, 240_000);
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const online = (phone: string) => RawClient.registered(h.port, phone);

  /** A GET through the app (answers of any type: the content route's are bytes). */
  const get = (token: string | null, url: string) =>
    h.s.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  const rowsOf = async (phone: string) =>
    await h.s.database.db
      .selectFrom('media')
      .selectAll()
      .where('terminal_id', '=', await terminalIdOf(h.s, phone))
      .orderBy('id')
      .execute();

  it('asks again for 2 lost packages of 7, then stores the photo once and serves it to its organisation only', async () => {
    const phone = demoTerminal(11);
    const raw = await online(phone);
    const data = photo(7 * PACKAGE - 200, 1);
    const frames = upload(phone, 200, 77, data);
    expect(frames.length).toBe(7);
    for (const [i, f] of frames.entries()) if (i !== 2 && i !== 4) raw.sendBytes(f);
    await until(() => mediaAnswers(raw.received).length === 1);
    expect(mediaAnswers(raw.received)).toEqual([{ mediaId: 77, missing: [3, 5] }]);
    expect(await rowsOf(phone)).toEqual([]);

    raw.sendBytes(frames[2]);
    raw.sendBytes(frames[4]);
    await until(() => mediaAnswers(raw.received).length === 2);
    expect(mediaAnswers(raw.received)[1]).toEqual({ mediaId: 77, missing: [] });
    const sha256 = createHash('sha256').update(data).digest('hex');
    const [row] = await rowsOf(phone);
    expect(row).toMatchObject({ media_id: expect.anything(), type: 0, format: 0, event: 2, channel: 1, sha256, bytes: data.length });
    expect(Number(row.media_id)).toBe(77);
    expect(row.latitude).toBeCloseTo(31.2, 6);
    expect(new Date(row.taken_at!).toISOString()).toBe(T);
    expect((await readFile(path.join(dir, sha256.slice(0, 2), sha256))).equals(data)).toBe(true);

    // Sent again whole (the terminal missed the answer): answered, nothing added.
    for (const f of upload(phone, 300, 77, data)) raw.sendBytes(f);
    await until(() => mediaAnswers(raw.received).length === 3);
    expect(await rowsOf(phone)).toHaveLength(1);

    // Served within the vehicle's organisation subtree, a 404 elsewhere.
    const owner = await sql<{ vehicleId: number; orgCode: string }>`
      SELECT v.id AS "vehicleId", o.code AS "orgCode" FROM vehicle v JOIN organisation o ON o.id = v.org_id
      WHERE v.terminal_id = ${row.terminal_id}`.execute(h.s.database.db);
    const { vehicleId, orgCode } = owner.rows[0];
    expect(row.vehicle_id).toBe(vehicleId);
    const inside = await h.s.memberToken(orgCode, 'orgUser');
    const outsideOrg = orgCode.startsWith('HN') ? 'HD' : 'HN';
    const outside = await h.s.memberToken(outsideOrg, 'administrator');
    const list = await get(inside, `/api/vehicle/vehicle/${vehicleId}/media`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      total: 1,
      data: [{ mediaId: 77, type: 'image', format: 'jpeg', event: 2, eventName: 'robberyAlarm', bytes: data.length }],
    });
    const url = list.json().data[0].url as string;
    const content = await get(inside, url);
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('image/jpeg');
    expect(content.rawPayload.equals(data)).toBe(true);
    expect((await get(inside, `/api/vehicle/vehicle/${vehicleId}/media?event=3`)).json()).toMatchObject({ total: 0, data: [] });
    expect((await get(outside, `/api/vehicle/vehicle/${vehicleId}/media`)).statusCode).toBe(404);
    expect((await get(outside, url)).statusCode).toBe(404);
    expect((await get(null, url)).statusCode).toBe(401);
    expect((await get(inside, `/api/vehicle/vehicle/${vehicleId}/media?pageSize=5000`)).statusCode).toBe(400);
    raw.destroy();
  });

  it('asks by serial (0x8003) when the first package, with the media id, is the one lost; a package beyond the count stores nothing', async () => {
    const phone = demoTerminal(12);
    const raw = await online(phone);
    const frames = upload(phone, 400, 5, photo(3 * PACKAGE, 2));
    for (const f of frames.slice(1)) raw.sendBytes(f);
    await until(() => raw.received.some((r) => r.msgId === MsgId.RetransmitRequest));
    const ask = raw.received.find((r) => r.msgId === MsgId.RetransmitRequest);
    expect(ask).toMatchObject({ body: { firstSerial: 400, packageIds: [1] } });

    // Index 9 of 3 (the encoder refuses to write it: patched into package 3's header): refused as a
    // bad packet; the heartbeat after it is still answered.
    const packet = Buffer.from(unframe(frames[2]));
    packet.writeUInt16BE(9, 14);
    packet[packet.length - 1] = xorChecksum(packet, 0, packet.length - 1);
    const beyond = escapeFrame(packet);
    raw.sendBytes(beyond);
    raw.send(phone, { msgId: MsgId.Heartbeat });
    await until(() =>
      raw.received.some((r) => r.msgId === MsgId.PlatformResponse && r.opaque === undefined && r.body.replyMsgId === MsgId.Heartbeat),
    );
    expect(await rowsOf(phone)).toEqual([]);
    expect(raw.closed).toBe(false);
    raw.destroy();
  });

  it('ties the photos a terminal took for a collision to the crash alarm of that time, and lists by event, channel, type and time', async () => {
    const phone = demoTerminal(13);
    const raw = await online(phone);
    const at = (s: number) => new Date(Date.parse(T) + s * 1000).toISOString();
    const shots = [
      { mediaId: 1, data: photo(800, 3), event: 3, channel: 1, time: at(5) }, // the crash's photo
      { mediaId: 2, data: photo(800, 4), event: 0, channel: 2, time: at(6) }, // asked by the platform meanwhile
      { mediaId: 3, data: photo(800, 5), event: 3, channel: 1, time: at(7200) }, // another collision, two hours on
    ];
    for (const [i, { mediaId, data, ...how }] of shots.entries())
      for (const f of upload(phone, 500 + i * 10, mediaId, data, how)) raw.sendBytes(f);
    await until(() => mediaAnswers(raw.received).length === 3);
    const rows = await rowsOf(phone);
    const idOf = (mediaId: number) => Number(rows.find((r) => Number(r.media_id) === mediaId)!.id);
    const vehicleId = rows[0].vehicle_id!;
    const orgCode = (
      await sql<{ code: string }>`SELECT o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${vehicleId}`.execute(
        h.s.database.db,
      )
    ).rows[0].code;
    const alarmOf = async (type: string, category: string) =>
      (
        await sql<{ id: number }>`
          INSERT INTO alarm (vehicle_id, type, category, level, begin_time, end_time, fired_at)
          VALUES (${vehicleId}, ${type}, ${category}, 'high', ${new Date(T)}, ${new Date(at(10))}, ${new Date(T)}) RETURNING id`.execute(
          h.s.database.db,
        )
      ).rows[0].id;
    const crash = await alarmOf('Crash', 'terminal');
    const speeding = await alarmOf('OverSpeed', 'terminal');
    const token = await h.s.memberToken(orgCode, 'orgUser');

    const evidence = await get(token, `/api/vehicle/alarm/${crash}/evidence`);
    expect(evidence.statusCode).toBe(200);
    expect(evidence.json().data).toEqual([
      {
        id: idOf(1),
        source: 'media',
        name: `media-${idOf(1)}.jpg`,
        kind: 'picture',
        contentType: 'image/jpeg',
        bytes: 800,
        takenAt: at(5),
        receivedAt: expect.any(String),
        url: `/api/vehicle/media/${idOf(1)}/content`,
      },
    ]);
    expect((await get(token, evidence.json().data[0].url)).rawPayload.equals(shots[0].data)).toBe(true);
    // An alarm of a type no terminal photographs has none, whatever was taken in its span.
    expect((await get(token, `/api/vehicle/alarm/${speeding}/evidence`)).json()).toEqual({ data: [] });

    const list = async (query: string) => {
      const r = await get(token, `/api/vehicle/vehicle/${vehicleId}/media?${query}`);
      expect(r.statusCode).toBe(200);
      return (r.json().data as Array<{ mediaId: number }>).map((m) => m.mediaId);
    };
    expect(await list('event=3')).toEqual([3, 1]);
    expect(await list('channel=2')).toEqual([2]);
    expect(await list('type=image&channel=1')).toEqual([3, 1]);
    expect(await list('type=audio')).toEqual([]);
    expect(await list(`begin=${encodeURIComponent(T)}&end=${encodeURIComponent(at(60))}`)).toEqual([2, 1]);
    expect((await get(token, `/api/vehicle/vehicle/${vehicleId}/media?type=photo`)).statusCode).toBe(400);
    raw.destroy();
  });
});
