/**
 * Fuel card purchases against what the fuel sensor saw, through the real gateway and derivation: a
 * day with an 80 L refuel at a long stay; a purchase of those litres at that time matches its
 * refuel, a purchase of more litres than the tank holds and one with no refuel seen are flagged as
 * FuelCardSuspect alarms (once, however often the clock ticks), and a purchase after what has been
 * derived waits as pending.
 */

import { sql } from 'kysely';
import { playLegs, type ScriptState } from '../../../server/simulator/dayScript';
import { MaintenanceClock } from '../../../server/maintenance/maintenanceClock';
import { BACKENDS, ADMIN_PASSWORD } from '../../helpers/testServer';
import { demoTerminal, startDeriveHarness, type DeriveHarness } from '../intelligence/harness';

const TZ = 'Asia/Shanghai';
/** Local midnight of 2026-11-02 in Shanghai. */
const DAY = Date.parse('2026-11-01T16:00:00Z');
const H = 3_600_000;

describe.each(BACKENDS)('fuel card purchases against the refuels seen on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  let cardId: number;
  let refuelAt: number;

  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(1);
    const terminal = await h.terminal(phone);
    vehicleId = await h.vehicleOf(phone);
    const state: ScriptState = { time: DAY + 7 * H, latitude: 31.2304, longitude: 121.4737, odometerKm: 30_000, fuelL: 150 };
    const reports = playLegs(
      state,
      [
        { kind: 'park', minutes: 60 },
        { kind: 'drive', minutes: 60, kmh: 50, heading: 90 },
        { kind: 'park', minutes: 90, refuelL: 80 },
        { kind: 'drive', minutes: 60, kmh: 50, heading: 270 },
        { kind: 'park', minutes: 120 },
      ],
      { driveEveryS: 30, parkEveryS: 300, fuelPerKm: 0.2 },
    );
    await h.send(terminal, reports, 'batch');
    await h.derived();
    const events = await sql<{ time: Date; amount_l: number }>`
      SELECT time, amount_l FROM fuel_event WHERE vehicle_id = ${vehicleId} AND kind = 'refuel'`.execute(h.s.database.db);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].amount_l).toBeCloseTo(80, 0);
    refuelAt = new Date(events.rows[0].time).getTime();
    const card = await h.s.call(admin, 'POST', '/api/vehicle/fuelCard', { cardNo: 'FC-0001', vehicleId });
    expect(card.status).toBe(201);
    cardId = card.body.id;
  }, 300_000);
  afterAll(() => h?.close());

  const purchase = async (at: number, litres: number, station: Record<string, unknown> = {}) => {
    const r = await h.s.call(admin, 'POST', '/api/vehicle/fuelCardTransaction', {
      cardId,
      purchasedAt: new Date(at).toISOString(),
      litres,
      amount: litres * 7.5,
      station: '中石化',
      ...station,
    });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const statusOf = async (id: number) => {
    const r = await h.s.call(admin, 'GET', `/api/vehicle/fuelCardTransaction/${id}`);
    return { status: r.body.matchStatus, fuelEventId: r.body.fuelEventId };
  };

  it('matches the purchase of the refuel, flags the suspect ones once, and leaves the underived pending', async () => {
    const matching = await purchase(refuelAt + 4 * 60_000, 78);
    const beyondTank = await purchase(DAY + 9 * H, 650);
    const noRefuel = await purchase(DAY + 8 * H + 30 * 60_000, 60);
    // Far from the refuel's place: no match, although time and litres fit.
    const elsewhere = await purchase(refuelAt - 3 * 60_000, 80, { stationLatitude: 31.5, stationLongitude: 121.9 });
    const later = await purchase(DAY + 2 * 86_400_000, 50);
    const clock = new MaintenanceClock(h.s.database.db, { timeZone: TZ });
    const now = DAY + 2 * 86_400_000 + 12 * H;
    const raised = await clock.tick(now);
    expect(await statusOf(matching)).toEqual({ status: 'matched', fuelEventId: expect.any(Number) });
    expect((await statusOf(beyondTank)).status).toBe('beyondTank');
    expect((await statusOf(noRefuel)).status).toBe('noRefuel');
    expect((await statusOf(elsewhere)).status).toBe('noRefuel');
    expect(await statusOf(later)).toEqual({ status: 'pending', fuelEventId: undefined });
    const suspects = raised.filter((a) => a.type === 'FuelCardSuspect');
    expect(suspects.map((a) => [a.subject, a.detail?.reason]).sort()).toEqual(
      [
        [`fuelCard:${beyondTank}`, 'beyondTank'],
        [`fuelCard:${noRefuel}`, 'noRefuel'],
        [`fuelCard:${elsewhere}`, 'noRefuel'],
      ].sort(),
    );
    // Ticking again raises nothing new, and the alarm centre lists each suspect once.
    expect((await clock.tick(now + 600_000)).filter((a) => a.type === 'FuelCardSuspect')).toEqual([]);
    const listed = await h.s.call(admin, 'POST', '/api/vehicle/alarm/query', {
      criteria: { vehicleId, type: 'FuelCardSuspect' },
      pageIndex: 1,
      pageSize: 20,
    });
    expect(listed.body.total).toBe(3);
  });

  it('refuses a purchase of a card it does not know, in the caller language, and stores nothing', async () => {
    const r = await h.s.call(
      admin,
      'POST',
      '/api/vehicle/fuelCardTransaction',
      { cardId: 999_999, purchasedAt: new Date(DAY).toISOString(), litres: 10, amount: 75 },
      'en-US',
    );
    expect(r.status).toBe(400);
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fuel_card_transaction WHERE card_id = 999999`.execute(
      h.s.database.db,
    );
    expect(stored.rows[0].n).toBe(0);
  });
});
