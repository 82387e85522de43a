import { BACKENDS } from '../../helpers/testServer';
import { at, scriptedDay } from './days';
import { derivedScriptedDay, startDeriveHarness, type DeriveHarness } from './harness';

const iso = (ms: number) => new Date(ms).toISOString();

/** The vehicle detail's messages: a vehicle's stored positions and OBD records, paged, in scope only. */
describe.each(BACKENDS)('vehicle messages on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let outsider: string;
  let vehicleId: number;
  const begin = iso(at('00:00'));
  const end = iso(at('23:59'));
  const sent = scriptedDay().filter((r) => Number(r.time) <= at('23:59'));
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    ({ admin, outsider, vehicleId } = await derivedScriptedDay(h));
  });
  afterAll(() => h.close());

  const messages = (token: string, criteria: Record<string, unknown>, pageIndex = 1, pageSize = 10, id = vehicleId) =>
    h.s.call(token, 'POST', `/api/vehicle/message/vehicle-${id}`, { criteria, pageIndex, pageSize });

  it('pages every stored position of the range, newest first, with the alarm and status bits by name', async () => {
    const first = await messages(admin, { kind: 'position', begin, end });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: sent.length, pageIndex: 1, pageSize: 10 });
    const newest = [...sent].sort((a, b) => Number(b.time) - Number(a.time));
    expect(first.body.data.map((r: { time: string }) => r.time)).toEqual(newest.slice(0, 10).map((r) => iso(Number(r.time))));
    const row = first.body.data[0];
    expect(row).toMatchObject({ latitude: newest[0].latitude, longitude: newest[0].longitude, blind: false });
    expect(Array.isArray(row.alarms) && Array.isArray(row.statusBits)).toBe(true);
    expect(row.statusBits.includes('accOn')).toBe(row.acc);
    const last = await messages(admin, { kind: 'position', begin, end }, Math.ceil(sent.length / 10));
    expect(last.body.data.at(-1).time).toBe(iso(Number(newest.at(-1)!.time)));
    // A range with nothing stored is an empty page.
    const empty = await messages(admin, { kind: 'position', begin: iso(at('00:00') - 86_400_000), end: iso(at('00:00') - 3_600_000) });
    expect(empty.body).toMatchObject({ total: 0, data: [] });
  });

  it('pages the OBD records the same way', async () => {
    const obd = await messages(admin, { kind: 'obd', begin, end });
    expect(obd.status).toBe(200);
    expect(obd.body.data.length).toBe(Math.min(10, obd.body.total));
    const times = obd.body.data.map((r: { time: string }) => r.time);
    expect([...times].sort().reverse()).toEqual(times);
    for (const r of obd.body.data)
      expect(r).toEqual(expect.objectContaining({ subtype: expect.any(Number), receivedAt: expect.any(String) }));
  });

  it('answers 404 for a vehicle outside the caller’s scope or unknown, and 400 for bad criteria', async () => {
    expect((await messages(outsider, { kind: 'position', begin, end })).status).toBe(404);
    expect((await messages(admin, { kind: 'position', begin, end }, 1, 10, 999_999)).status).toBe(404);
    expect((await messages(admin, { kind: 'raw', begin, end })).status).toBe(400);
    expect((await messages(admin, { kind: 'position', begin })).status).toBe(400);
    const backwards = await messages(admin, { kind: 'position', begin: end, end: begin });
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(backwards.body)).toContain('criteria.end');
    expect((await h.s.call(admin, 'POST', '/api/vehicle/message/vehicle-abc', { criteria: { kind: 'position', begin, end } })).status).toBe(
      400,
    );
    expect(
      (await h.s.call(null, 'POST', `/api/vehicle/message/vehicle-${vehicleId}`, { criteria: { kind: 'position', begin, end } })).status,
    ).toBe(401);
  });
});
