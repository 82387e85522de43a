/**
 * Issue 39, finding 1: a terminal's number and SIM are one identity per device across both columns
 * and every organisation (leading zeros ignored). Another tenant who learns a SIM can neither
 * create a terminal that takes the device over nor learn where the clash is; and even a colliding
 * row stored before the rule never captures the device that registered first.
 */

import { sql } from 'kysely';
import { MsgId, type LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { RawClient, startGateway, storedTimes, until, type GatewayHarness } from './harness';

const place = (time: number): LocationInput => ({
  latitude: 31.2,
  longitude: 121.4,
  speed: 30,
  direction: 0,
  status: { accOn: true, fixed: true },
  time,
});

describe.each(BACKENDS)('terminal identity across tenants on %s', (backend) => {
  let h: GatewayHarness;
  let hd: string;
  let hn: string;
  beforeAll(async () => {
    h = await startGateway(backend, { routes: { commandTimeoutMs: 400 } });
    hd = await h.s.memberToken('HD', 'administrator');
    hn = await h.s.memberToken('HN', 'administrator');
  });
  afterAll(() => h.close());

  const createTerminal = (token: string, terminalNo: string, sim: string, lang?: string) =>
    h.s.call(token, 'PUT', '/api/vehicle/terminal', { terminalNo, sim }, lang);
  const vehicleWith = async (token: string, licence: string, terminalId: number): Promise<number> => {
    const v = await h.s.call(token, 'POST', '/api/vehicle/vehicle', { licence, terminalId });
    expect(v.status).toBe(201);
    return v.body.id;
  };
  const positionsOfVehicle = async (vehicleId: number) =>
    Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM position WHERE vehicle_id = ${vehicleId}`.execute(h.s.database.db)).rows[0].n,
    );

  it('refuses every clash with one answer that tells nothing of the other row, its column or organisation', async () => {
    const own = await createTerminal(hn, 'HN0000001', '14466600001');
    expect(own.status).toBe(201);
    const a = await createTerminal(hd, 'HD0000001', '14455500001');
    expect(a.status).toBe(201);
    const answers = [
      await createTerminal(hn, '14455500001', '14466600099'), // A's SIM as a number (another organisation)
      await createTerminal(hn, 'HN0000002', '0014455500001'), // A's SIM, zero-padded, as a SIM
      await createTerminal(hn, 'HD0000001', '14466600098'), // A's number
      await createTerminal(hn, '14466600001', '14466600097'), // its own organisation's SIM as a number
      await createTerminal(hn, 'HN0000003', '14466600001'), // its own organisation's SIM
    ];
    expect(answers.map((r) => r.status)).toEqual([406, 406, 406, 406, 406]);
    const bodies = answers.map((r) => JSON.stringify(r.body));
    expect(new Set(bodies).size).toBe(1);
    expect(answers[0].body.message).toBe('终端编号、SIM 卡号中的号码已被占用：一个号码（不计前导 0）只能属于一台终端');
    expect(answers[0].body.errors.map((e: { field: string }) => e.field)).toEqual(['terminalNo', 'sim']);
    expect(bodies[0]).not.toMatch(/华东|HD|14455500001/);
    const en = await createTerminal(hn, '14455500001', '14466600099', 'en-US');
    expect(en.body.message).toBe(
      'A number in Terminal number、SIM number is already taken: each number (leading zeros ignored) belongs to one terminal only',
    );
    // An edit is held to the same rule.
    const edit = await h.s.call(hn, 'PUT', `/api/vehicle/terminal/${own.body.id}`, { terminalNo: 'HN0000001', sim: '14455500001' });
    expect(edit.status).toBe(406);
    expect(JSON.stringify(edit.body)).toBe(bodies[0]);
    // The database holds the rule whatever writes the row.
    await expect(
      sql`INSERT INTO terminal (org_id, terminal_no, sim) VALUES (${await h.s.orgId('HN')}, '0014455500001', '14466600096')`.execute(
        h.s.database.db,
      ),
    ).rejects.toThrow(/terminal_identity_pkey/);
  });

  it("keeps A's device A's: the takeover is refused, and a colliding row stored before the rule never captures it", async () => {
    const sim = '14455500002';
    const a = await createTerminal(hd, 'HD0000002', sim);
    const aVehicle = await vehicleWith(hd, '沪D39002', a.body.id);
    // A's device speaks with its SIM as the header phone.
    const device = h.terminal(sim);
    await device.connect();
    const code = device.authCode!;
    device.report(place(Date.parse('2026-11-28T01:00:00Z')));
    await device.drain();
    await device.end();

    // B learns the SIM and numbers a terminal with it: refused.
    expect((await createTerminal(hn, sim, '14466600010')).status).toBe(406);
    // A colliding row from before the rule (written past the trigger), bound to B's vehicle.
    const db = h.s.database.db;
    await sql`ALTER TABLE terminal DISABLE TRIGGER USER`.execute(db);
    const b = await sql<{
      id: number;
    }>`INSERT INTO terminal (org_id, terminal_no, sim) VALUES (${await h.s.orgId('HN')}, ${sim}, '14466600011') RETURNING id`.execute(db);
    await sql`ALTER TABLE terminal ENABLE TRIGGER USER`.execute(db);
    const bTerminal = b.rows[0].id;
    const bVehicle = await vehicleWith(hn, '粤B39002', bTerminal);

    // A's device keeps authenticating with its code, and its positions land in A's vehicle.
    const again = h.terminal(sim);
    again.authCode = code;
    await again.connect();
    again.report(place(Date.parse('2026-11-28T01:01:00Z')));
    await again.drain();
    expect(again.stats.acked).toBe(1);
    await again.end();
    expect(await positionsOfVehicle(aVehicle)).toBe(2);
    expect(await positionsOfVehicle(bVehicle)).toBe(0);
    expect(await storedTimes(h.s, bTerminal)).toEqual([]);

    // A registration under that phone is A's too: A is registered, so it is refused, never B's.
    const raw = await RawClient.open(h.port);
    raw.send(sim, {
      msgId: MsgId.Register,
      body: { province: 31, city: 100, makerId: 'EVIL', model: 'X-1', terminalId: 'B000001', plateColor: 1, plate: '' },
    });
    expect((await raw.waitFor(1))[0]).toMatchObject({ msgId: MsgId.RegisterResponse, body: { result: 3 } });
    await raw.waitClosed();
    const bLink = await db.selectFrom('terminal_link').select('auth_code').where('terminal_id', '=', bTerminal).executeTakeFirst();
    expect(bLink?.auth_code ?? null).toBeNull();
  });

  it('keeps a registered identity with its terminal when the row changes its SIM, until the registration is reset', async () => {
    const sim = '14455500003';
    const a = await createTerminal(hd, 'HD0000003', sim);
    const device = h.terminal(sim);
    await device.connect();
    await device.end();
    // A swaps the SIM on the row; the device registered under the old one is still A's.
    expect((await h.s.call(hd, 'PUT', `/api/vehicle/terminal/${a.body.id}`, { terminalNo: 'HD0000003', sim: '14455500004' })).status).toBe(
      200,
    );
    expect((await createTerminal(hn, sim, '14466600020')).status).toBe(406);
    const again = h.terminal(sim);
    again.authCode = device.authCode;
    await again.connect();
    await again.end();
    // A reset frees it (and its live session, had it one).
    await until(
      async () =>
        !(await db().selectFrom('terminal_link').select('online').where('terminal_id', '=', a.body.id).executeTakeFirstOrThrow()).online,
    );
    expect((await h.s.call(hd, 'PUT', `/api/vehicle/terminal/${a.body.id}/resetRegistration`)).status).toBe(200);
    expect((await createTerminal(hn, sim, '14466600020')).status).toBe(201);
  });

  const db = () => h.s.database.db;
});
