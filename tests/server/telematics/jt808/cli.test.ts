import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { encodeMessageFrames, MsgId } from '../../../../server/telematics/jt808/codec';
import { REAL, REFERENCE_HEARTBEAT } from './fixtures';

const ROOT = resolve(__dirname, '../../../..');
const CLI = resolve(ROOT, 'server/telematics/jt808/cli.ts');

interface Run {
  status: number | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

function cli(args: string[], input?: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 60_000 });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, lines, stderr: r.stderr };
}

describe('jt808 decode CLI', () => {
  it('decodes frames given as arguments, one JSON object per line', () => {
    const r = cli(['decode', REFERENCE_HEARTBEAT, REAL.locationEb]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.lines).toHaveLength(2);
    expect(r.lines[0]).toEqual({ msgId: '0x0002', version: 2013, phone: '12345678900', serial: 10, body: {} });
    expect(r.lines[1]).toMatchObject({
      msgId: '0x0200',
      version: 2013,
      phone: '12345678901',
      serial: 19,
      body: {
        alarm: { raw: 128, active: ['powerUnderVoltage'] },
        status: { raw: 3, accOn: true, fixed: true },
        latitude: 22.641605,
        longitude: 114.032486,
        altitude: 235,
        speed: 0,
        direction: 341,
        time: '2021-07-26T12:35:31.000Z',
        extras: { mileageKm: 0, eb: { iccid: '89860477012070271502', batteryV: 3.6 } },
      },
    });
    expect(r.lines[1].body).not.toHaveProperty('timestamp');
  });

  it('reads one frame per line from stdin, tolerates spaces, reports bad frames and exits non-zero', () => {
    const spaced = REFERENCE_HEARTBEAT.replace(/(..)/g, '$1 ');
    const input = [spaced, '', 'not hex', REAL.badChecksum, REAL.register2013, '7e 00'].join('\n');
    const r = cli(['decode'], input);
    expect(r.status).toBe(1);
    expect(r.lines).toHaveLength(5);
    expect(r.lines[0]).toMatchObject({ msgId: '0x0002', phone: '12345678900' });
    expect(r.lines[1]).toEqual({ error: expect.stringMatching(/^BAD_HEX/), code: 'BAD_HEX' });
    expect(r.lines[2]).toEqual({ error: expect.stringMatching(/^BAD_CHECKSUM/), code: 'BAD_CHECKSUM' });
    expect(r.lines[3]).toMatchObject({ msgId: '0x0100', body: { plate: '粤B88888', layout: 2013 } });
    expect(r.lines[4]).toMatchObject({ code: 'TRUNCATED' });
  });

  it('decodes downlink messages and reassembles subpackages', () => {
    const down = encodeMessageFrames(
      { phone: '13912345678', serial: 5 },
      { msgId: MsgId.PlatformResponse, body: { replySerial: 9, replyMsgId: 0x0200, result: 4 } },
    )[0];
    const parts = encodeMessageFrames(
      { phone: '13912345678', serial: 40 },
      { msgId: MsgId.Transparent, body: { type: 0x41, obdRt: { power: 12.6, rpm: 750 }, content: undefined } },
      { maxPacketBody: 8 },
    );
    const r = cli(['decode', down.toString('hex'), ...parts.map((p) => p.toString('hex'))]);
    expect(r.status).toBe(0);
    expect(r.lines[0]).toMatchObject({
      msgId: '0x8001',
      body: { replySerial: 9, replyMsgId: 0x0200, result: 4, resultName: 'alarmConfirmed' },
    });
    expect(r.lines).toHaveLength(1 + parts.length);
    expect(r.lines[1]).toMatchObject({ msgId: '0x0900', opaque: 'fragment', packet: { count: parts.length, index: 1 } });
    expect(r.lines[parts.length]).toMatchObject({
      msgId: '0x0900',
      serial: 40,
      reassembledFrom: parts.length,
      body: { type: 0x41, obdRt: { power: 12.6, rpm: 750 } },
    });
  });

  it('prints usage and exits 2 without the decode command', () => {
    const r = cli([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage: jt808 decode/);
  });
});
