import { sql } from 'kysely';
import { createAjv } from '../../../schemas/kit/ajv';
import { POLICY_ALARM_TYPES, POLICY_PARAMS_SCHEMA } from '../../../schemas/kit/policyParams';
import { entities } from '../../../schemas/generated/registry';
import { policiesFor } from '../../../server/intelligence/alarms/policies';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

describe('the policy parameter schema', () => {
  const valid = createAjv({ useDefaults: false }).compile(POLICY_PARAMS_SCHEMA as object);
  it('covers exactly the policy schema’s alarm types, one oneOf branch each', () => {
    const enumTypes = (entities.policy.properties.alarmType as { enum: string[] }).enum;
    expect([...POLICY_ALARM_TYPES].sort()).toEqual([...enumTypes].sort());
    for (const alarmType of POLICY_ALARM_TYPES) expect(valid({ alarmType, params: null })).toBe(true);
  });
  it.each([
    [{ alarmType: 'Fatigue', params: { hours: 5, restMinutes: 30 } }, true],
    [{ alarmType: 'Fatigue', params: { hours: 25 } }, false],
    [{ alarmType: 'Fatigue', params: { radiusM: 200 } }, false],
    [{ alarmType: 'RepeatArrival', params: { radiusM: 300, count: 4, windowHours: 48 } }, true],
    [{ alarmType: 'OverSpeed', params: { durationSeconds: 30 } }, true],
    [{ alarmType: 'Low', params: {} }, true],
    [{ alarmType: 'Low', params: { hours: 1 } }, false],
    [{ alarmType: 'Nope', params: null }, false],
  ])('%j → %s', (body, ok) => expect(valid(body)).toBe(ok));
});

describe.each(BACKENDS)('policy parameters through the API on %s', (backend) => {
  let s: TestServer;
  let hd: string;
  beforeAll(async () => {
    s = await startTestServer(backend);
    hd = await s.memberToken('HD', 'administrator');
  });
  afterAll(() => s.close());

  it('stores parameters that fit the type, and the engine reads them', async () => {
    const r = await s.call(hd, 'PUT', '/api/vehicle/policy', { name: '疲劳', alarmType: 'Fatigue', params: { hours: 3, restMinutes: 15 } });
    expect(r.status).toBe(201);
    expect(r.body.params).toEqual({ hours: 3, restMinutes: 15 });
    const path = (await sql<{ path: string }>`SELECT path FROM organisation WHERE code = 'HD-SH'`.execute(s.database.db)).rows[0].path;
    expect((await policiesFor(s.database.db, path)).get('Fatigue')?.params).toEqual({ hours: 3, restMinutes: 15 });
    // An update without the type is checked against the stored one.
    expect((await s.call(hd, 'PUT', `/api/vehicle/policy/${r.body.id}`, { params: { hours: 4 } })).status).toBe(200);
    const bad = await s.call(hd, 'PUT', `/api/vehicle/policy/${r.body.id}`, { params: { hours: 40 } }, 'en-US');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('params.hours');
    expect(bad.body.message).toMatch(/Continuous driving \(h\)/);
    // Changing the type to one whose parameters these are not is refused too.
    const moved = await s.call(hd, 'PUT', `/api/vehicle/policy/${r.body.id}`, { alarmType: 'Low' });
    expect(moved.status).toBe(400);
    expect((await s.call(hd, 'GET', `/api/vehicle/policy/${r.body.id}`)).body).toMatchObject({
      alarmType: 'Fatigue',
      params: { hours: 4 },
    });
  });

  it('refuses parameters of another type, and parameters for a type that takes none, in the caller’s language', async () => {
    const other = await s.call(hd, 'PUT', '/api/vehicle/policy', {
      name: '超速',
      alarmType: 'OverSpeed',
      threshold: 90,
      params: { radiusM: 200 },
    });
    expect(other.status).toBe(400);
    expect(other.body.errors[0].field).toBe('params.radiusM');
    const none = await s.call(hd, 'PUT', '/api/vehicle/policy', { name: '低压', alarmType: 'Low', threshold: 11.5, params: { hours: 1 } });
    expect(none).toMatchObject({ status: 400, body: { message: '该告警类型没有策略参数' } });
    expect((await s.call(hd, 'PUT', '/api/vehicle/policy', { name: '低压', alarmType: 'Low', threshold: 11.5 })).status).toBe(201);
    expect((await s.call(hd, 'POST', '/api/vehicle/policy/query', { criteria: { name: '超速' } })).body.data).toEqual([]);
  });
});
