import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../../helpers/testServer';
import { REAL, REFERENCE_HEARTBEAT } from './jt808/fixtures';

/** The console's decode page calls this: the same decoder as the CLI, over HTTP, signed-in only. */
describe('POST /api/vehicle/tools/jt808/decode', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer('pglite');
    admin = await s.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => s.close());

  it('decodes pasted frames line by line and reports the bad ones in place', async () => {
    const frames = [REFERENCE_HEARTBEAT.replace(/(..)/g, '$1 '), '', 'not hex', REAL.badChecksum, REAL.locationEb].join('\r\n');
    const r = await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames });
    expect(r.status).toBe(200);
    expect(r.body.truncated).toBe(false);
    expect(r.body.results).toHaveLength(4);
    expect(r.body.results[0]).toEqual({ msgId: '0x0002', version: 2013, phone: '12345678900', serial: 10, body: {} });
    expect(r.body.results[1]).toMatchObject({ code: 'BAD_HEX' });
    expect(r.body.results[2]).toMatchObject({ code: 'BAD_CHECKSUM' });
    expect(r.body.results[3]).toMatchObject({ msgId: '0x0200', body: { latitude: 22.641605, time: '2021-07-26T12:35:31.000Z' } });
    // The device clock offset is the caller's to choose; a bad checksum can be waved through.
    const utc = await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames: REAL.locationEb, tzOffsetMinutes: 0 });
    expect(utc.body.results[0].body.time).toBe('2021-07-26T20:35:31.000Z');
    const sum = REFERENCE_HEARTBEAT.slice(-4, -2);
    const wrongSum = REFERENCE_HEARTBEAT.slice(0, -4) + (sum === '00' ? '01' : '00') + '7e';
    const strict = await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames: wrongSum });
    expect(strict.body.results[0]).toMatchObject({ code: 'BAD_CHECKSUM' });
    const lax = await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames: wrongSum, verifyChecksum: false });
    expect(lax.body.results[0]).toMatchObject({ msgId: '0x0002', phone: '12345678900' });
  });

  it('refuses bad bodies with a localised 400 and callers without a session with 401', async () => {
    const empty = await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames: '' }, 'en-US');
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'frames' });
    expect(empty.body.errors[0].message).toContain('Frames');
    expect((await s.call(admin, 'POST', '/api/vehicle/tools/jt808/decode', { frames: 'x', tzOffsetMinutes: 9999 })).status).toBe(400);
    expect((await s.call(null, 'POST', '/api/vehicle/tools/jt808/decode', { frames: REFERENCE_HEARTBEAT })).status).toBe(401);
  });
});
