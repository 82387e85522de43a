/**
 * Issue 39, finding 11: a place off the globe is refused as malformed and stored nowhere; a device
 * clock far ahead (2059) is kept in the history but never becomes the vehicle's latest state, and a
 * state already pinned there gives way to the next report.
 */

import { sql } from 'kysely';
import { MsgId, type DecodedMessage, type LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, storedTimes, terminalIdOf, type GatewayHarness } from './harness';

const place = (time: number, latitude = 31.2, longitude = 121.4): LocationInput => ({
  latitude,
  longitude,
  speed: 30,
  direction: 0,
  status: { accOn: true, fixed: true },
  time,
});
const result = (m: DecodedMessage): number | undefined =>
  m.opaque === undefined && 'result' in m.body ? (m.body.result as number) : undefined;

describe.each(BACKENDS)('position sanity on %s', (backend) => {
  let h: GatewayHarness;
  let raw: RawClient;
  let terminalId: number;
  const phone = demoTerminal(7);
  beforeAll(async () => {
    h = await startGateway(backend);
    terminalId = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    const code = t.authCode!;
    await t.end();
    raw = await RawClient.open(h.port);
    raw.send(phone, { msgId: MsgId.Auth, body: { code } });
    expect(result((await raw.waitFor(1))[0])).toBe(0);
  });
  afterAll(async () => {
    raw.destroy();
    await h.close();
  });

  /** Sends a message and answers the result of its platform response. */
  const answer = async (message: Parameters<RawClient['send']>[1]): Promise<number | undefined> => {
    const n = raw.received.length;
    raw.send(phone, message);
    return result((await raw.waitFor(n + 1))[n]);
  };
  const state = async () => {
    const r = await sql<{
      device_time: Date;
      latitude: number;
    }>`SELECT s.device_time, s.latitude FROM vehicle_state s JOIN vehicle v ON v.id = s.vehicle_id WHERE v.terminal_id = ${terminalId}`.execute(
      h.s.database.db,
    );
    return r.rows.map((x) => ({ at: new Date(x.device_time).getTime(), latitude: x.latitude }));
  };

  it('refuses latitude 95 and longitude 200 as malformed, storing nothing; a batch keeps its good positions', async () => {
    const now = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const before = h.gateway.stats.offGlobePositions;
    expect(await answer({ msgId: MsgId.Location, body: place(now, 95) })).toBe(2);
    expect(await answer({ msgId: MsgId.Location, body: place(now + 1000, 31.2, 200) })).toBe(2);
    expect(await storedTimes(h.s, terminalId)).toEqual([]);
    expect(await answer({ msgId: MsgId.BatchLocation, body: { type: 0, items: [place(now + 2000), place(now + 3000, -95)] } })).toBe(0);
    expect(await storedTimes(h.s, terminalId)).toEqual([now + 2000]);
    expect(await state()).toEqual([{ at: now + 2000, latitude: 31.2 }]);
    expect(h.gateway.stats.offGlobePositions - before).toBe(3);
  });

  it('keeps a device time of 2059 in the history without making it the latest state; a pinned state gives way', async () => {
    const future = Date.parse('2059-06-01T00:00:00Z');
    const sane = Math.floor(Date.now() / 1000) * 1000 - 30_000;
    expect(await answer({ msgId: MsgId.Location, body: place(sane, 31.3) })).toBe(0);
    expect(await answer({ msgId: MsgId.Location, body: place(future, 31.9) })).toBe(0);
    expect(await storedTimes(h.s, terminalId)).toContain(future);
    expect(await state()).toEqual([{ at: sane, latitude: 31.3 }]);
    // A report shortly after still moves the state: the future one does not block it.
    expect(await answer({ msgId: MsgId.Location, body: place(sane + 1000, 31.4) })).toBe(0);
    expect(await state()).toEqual([{ at: sane + 1000, latitude: 31.4 }]);
    // A state stored before the rule, pinned in 2059, is replaced by the next report.
    await sql`UPDATE vehicle_state SET device_time = ${new Date(future)}, latitude = 31.9 WHERE terminal_id = ${terminalId}`.execute(
      h.s.database.db,
    );
    expect(await answer({ msgId: MsgId.Location, body: place(sane + 2000, 31.5) })).toBe(0);
    expect(await state()).toEqual([{ at: sane + 2000, latitude: 31.5 }]);
  });
});
