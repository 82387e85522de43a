/**
 * API keys of API users through the real server: a key acts within its organisation subtree and
 * codes on every existing route, is refused (401, audited with the reason) when it may not act,
 * is refused routes only people may call, is rate-limited, and its secret is shown once only.
 */
import crypto from 'node:crypto';
import { readXlsx } from '../../helpers/xlsx';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

describe.each(BACKENDS)('API keys on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  /** A call presenting a key, answering headers too. */
  const withKey = async (
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: object,
    opts: { header?: 'bearer' | 'x-api-key'; lang?: string } = {},
  ) => {
    const res = await s.app.inject({
      method,
      url,
      headers: {
        ...(opts.header === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` }),
        ...(opts.lang ? { 'accept-language': opts.lang } : {}),
      },
      ...(body ? { payload: body } : {}),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
  };
  const vehicleOf = async (orgCode: string) =>
    (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { orgId: await s.orgId(orgCode) }, pageSize: 1 })).body
      .data[0] as { id: number; licence: string };
  let n = 0;
  const apiUser = async (orgCode: string, extra: Record<string, unknown> = {}) => {
    const r = await s.call(admin, 'POST', '/api/vehicle/apiUser', {
      name: `集成方${++n}`,
      appKey: `integrator-${backend}-${n}`,
      orgId: await s.orgId(orgCode),
      ...extra,
    });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const createKey = async (token: string, userId: number, body: Record<string, unknown>) =>
    s.call(token, 'POST', `/api/vehicle/apiUser/${userId}/keys`, { name: 'k', days: 30, ...body });
  const refusals = async (prefix: string) =>
    (
      await s.database.db
        .selectFrom('audit_log')
        .select(['detail', 'success', 'org_id', 'ip'])
        .where('action', '=', 'apiKeyRefused')
        .where('target', '=', prefix)
        .orderBy('id')
        .execute()
    ).map((r) => ({ reason: (JSON.parse(r.detail ?? '{}') as { reason: string }).reason, success: r.success }));

  it('acts within its organisation subtree and its codes on existing routes, by either header', async () => {
    const lead = await s.addMember('HD', 'orgUser', ['apiUser-key', 'vehicle-edit', 'vehicle-add']);
    const user = await apiUser('HD');
    const made = await createKey(lead.token, user, { orgId: await s.orgId('HD-SH'), codes: ['vehicle-edit'] });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(key).toMatch(/^fsk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.body).toMatchObject({ prefix: key.slice(0, 20), codes: ['vehicle-edit'], status: 'active', useCount: 0, lastUsedAt: null });

    const sh = await vehicleOf('HD-SH');
    const hz = await vehicleOf('HD-HZ');
    const hn = await vehicleOf('HN');
    expect((await withKey(key, 'GET', `/api/vehicle/vehicle/queryById/${sh.id}`)).body.licence).toBe(sh.licence);
    expect((await withKey(key, 'GET', `/api/vehicle/vehicle/queryById/${sh.id}`, undefined, { header: 'x-api-key' })).status).toBe(200);
    // Its creator sees HD-HZ; the key does not: the same 404 a member of HD-SH gets.
    for (const other of [hz, hn]) {
      expect((await withKey(key, 'GET', `/api/vehicle/vehicle/queryById/${other.id}`)).status).toBe(404);
      expect((await withKey(key, 'PUT', `/api/vehicle/vehicle/${other.id}`, { remark: '越界' })).status).toBe(404);
    }
    const listed = await withKey(key, 'POST', '/api/vehicle/vehicle/query', { pageSize: 500 });
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(new Set(listed.body.data.map((v: { orgName: string }) => v.orgName))).toEqual(new Set(['上海车队']));
    // The code it has, and not the one it lacks (which its creator holds).
    expect((await withKey(key, 'PUT', `/api/vehicle/vehicle/${sh.id}`, { remark: '接口修改' })).status).toBe(200);
    const refused = await withKey(key, 'DELETE', `/api/vehicle/vehicle/${sh.id}`);
    expect(refused.status).toBe(403);

    // Usage is shown in the list; the secret never again.
    const keys = await s.call(lead.token, 'GET', `/api/vehicle/apiUser/${user}/keys`);
    expect(keys.status).toBe(200);
    expect(keys.body[0]).toMatchObject({ id: made.body.id, useCount: 9, lastUsedIp: '127.0.0.1', orgName: '上海车队' });
    expect(keys.body[0].lastUsedAt).not.toBeNull();

    // A code the creator no longer holds is gone from the key at once.
    await s.database.db.deleteFrom('member_role').where('member_id', '=', lead.id).execute();
    expect((await withKey(key, 'PUT', `/api/vehicle/vehicle/${sh.id}`, { remark: '再改' })).status).toBe(403);
    // And a creator who may no longer act takes the key along.
    await s.database.db.updateTable('member').set({ status: 'disabled' }).where('id', '=', lead.id).execute();
    expect((await withKey(key, 'GET', `/api/vehicle/vehicle/queryById/${sh.id}`)).body.code).toBe('apiKey.refused.creatorInvalid');
  });

  it('lets nobody grant beyond their own subtree and codes, nor reach another subtree’s API users', async () => {
    const lead = await s.addMember('HD', 'orgUser', ['apiUser-key', 'vehicle-edit']);
    const mine = await apiUser('HD');
    const theirs = await apiUser('HN');
    const notHeld = await createKey(lead.token, mine, { codes: ['vehicle-edit', 'vehicle-remove'] });
    expect(notHeld.status).toBe(406);
    expect(notHeld.body.code).toBe('passport.codesNotHeld');
    const unknown = await createKey(lead.token, mine, { codes: ['no-such-code'] });
    expect(unknown.status).toBe(400);
    const outside = await s.call(
      lead.token,
      'POST',
      `/api/vehicle/apiUser/${mine}/keys`,
      {
        name: 'k',
        days: 30,
        codes: ['vehicle-edit'],
        orgId: await s.orgId('HN'),
      },
      'en-US',
    );
    expect(outside.status).toBe(400);
    expect(outside.body.errors[0]).toMatchObject({ field: 'orgId' });
    for (const bad of [{ days: 0 }, { days: 731 }, { name: '' }, { codes: [] }, { rateLimit: 0 }, { extra: 1 }])
      expect((await createKey(lead.token, mine, { codes: ['vehicle-edit'], ...bad })).status).toBe(400);
    // A key of an HD API user may not see HN, even when its creator (the platform admin) does.
    const hdSide = await createKey(admin, mine, { codes: ['vehicle-edit'], orgId: await s.orgId('HN') });
    expect(hdSide.status).toBe(400);
    expect(await s.database.db.selectFrom('api_key').select('id').where('api_user_id', '=', mine).execute()).toEqual([]);

    const hnKey = await createKey(admin, theirs, { codes: ['vehicle-edit'] });
    expect(hnKey.status).toBe(201);
    expect((await s.call(lead.token, 'GET', `/api/vehicle/apiUser/${theirs}/keys`)).status).toBe(404);
    expect((await createKey(lead.token, theirs, { codes: ['vehicle-edit'] })).status).toBe(404);
    expect((await s.call(lead.token, 'PUT', `/api/vehicle/apiKey/${hnKey.body.id}`, { enabled: false })).status).toBe(404);
    expect((await s.call(lead.token, 'DELETE', `/api/vehicle/apiKey/${hnKey.body.id}`)).status).toBe(404);
    expect((await s.call(admin, 'GET', `/api/vehicle/apiUser/${theirs}/keys`)).body[0].status).toBe('active');
    // Without the code, none of it.
    const plain = await s.memberToken('HD', 'orgUser', ['vehicle-edit']);
    expect((await s.call(plain, 'GET', `/api/vehicle/apiUser/${mine}/keys`)).status).toBe(403);
  });

  it('refuses routes only people may call, with a localised 403', async () => {
    const user = await apiUser('HD');
    const key = (await createKey(admin, user, { codes: ['apiUser-key', 'member-simulate'] })).body.key as string;
    for (const [method, url] of [
      ['GET', '/api/passport/member/current'],
      ['POST', '/api/passport/member/change-password'],
      ['POST', '/api/logout'],
      ['GET', `/api/vehicle/apiUser/${user}/keys`],
      ['POST', `/api/vehicle/apiUser/${user}/keys`],
      ['POST', '/api/passport/member/1/simulate-login'],
    ] as const) {
      const r = await withKey(key, method, url, method === 'POST' ? {} : undefined, { lang: 'en-US' });
      expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status: 403, code: 'apiKey.personOnly' });
    }
    expect((await withKey(key, 'GET', '/api/passport/member/current', undefined, { lang: 'en-US' })).body.message).toBe(
      'An API key cannot call this; sign in with an account to do it',
    );
  });

  it('refuses (401, audited with the reason) expired, revoked, disabled, wrong and malformed keys and those of a disabled API user', async () => {
    const user = await apiUser('HD', { ipWhitelist: '127.0.0.1, 10.0.0.0/8' });
    const make = async () =>
      (await createKey(admin, user, { codes: ['vehicle-edit'] })).body as { id: number; key: string; prefix: string };
    const url = `/api/vehicle/vehicle/queryById/${(await vehicleOf('HD-SH')).id}`;
    const expectRefused = async (key: string, reason: string, message?: string) => {
      const r = await withKey(key, 'GET', url, undefined, { lang: 'en-US' });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: `apiKey.refused.${reason}` });
      if (message) expect(r.body.message).toBe(message);
    };

    const expired = await make();
    expect((await withKey(expired.key, 'GET', url)).status).toBe(200);
    await s.database.db
      .updateTable('api_key')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    await expectRefused(expired.key, 'expired', 'The API key has expired');

    const revoked = await make();
    expect((await withKey(revoked.key, 'GET', url)).status).toBe(200);
    expect((await s.call(admin, 'DELETE', `/api/vehicle/apiKey/${revoked.id}`)).status).toBe(204);
    await expectRefused(revoked.key, 'revoked', 'The API key has been revoked');
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiKey/${revoked.id}`, { enabled: true })).status).toBe(406);

    const toggled = await make();
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiKey/${toggled.id}`, { enabled: false })).body.status).toBe('disabled');
    await expectRefused(toggled.key, 'disabled');
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiKey/${toggled.id}`, { enabled: true })).body.status).toBe('active');
    expect((await withKey(toggled.key, 'GET', url)).status).toBe(200);

    // The wrong secret behind a real prefix, an unknown prefix, and things that are no key at all.
    const wrong = `${toggled.prefix}_${crypto.randomBytes(32).toString('base64url')}`;
    await expectRefused(wrong, 'unknown', 'The API key is not valid');
    await expectRefused(`fsk_${'0'.repeat(16)}_${crypto.randomBytes(32).toString('base64url')}`, 'unknown');
    await expectRefused('fsk_short', 'malformed', 'The API key is malformed');
    const headerOnly = await withKey('not a key', 'GET', url, undefined, { header: 'x-api-key' });
    expect({ status: headerOnly.status, code: headerOnly.body.code }).toEqual({ status: 401, code: 'apiKey.refused.malformed' });

    // The API user's own state applies to all its keys.
    const live = await make();
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiUser/${user}`, { enabled: false })).status).toBe(200);
    await expectRefused(live.key, 'apiUserDisabled');
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiUser/${user}`, { enabled: true, expireDate: '2020-01-01' })).status).toBe(200);
    await expectRefused(live.key, 'apiUserExpired');
    expect(
      (await s.call(admin, 'PUT', `/api/vehicle/apiUser/${user}`, { expireDate: '2099-01-01', ipWhitelist: '10.0.0.0/8' })).status,
    ).toBe(200);
    await expectRefused(live.key, 'ipNotAllowed');
    expect((await s.call(admin, 'PUT', `/api/vehicle/apiUser/${user}`, { ipWhitelist: '10.0.0.0/8,127.0.0.1' })).status).toBe(200);
    expect((await withKey(live.key, 'GET', url)).status).toBe(200);

    expect(await refusals(expired.prefix)).toEqual([{ reason: 'expired', success: false }]);
    expect(await refusals(revoked.prefix)).toEqual([{ reason: 'revoked', success: false }]);
    expect(await refusals(toggled.prefix)).toEqual([
      { reason: 'disabled', success: false },
      { reason: 'unknown', success: false },
    ]);
    expect(await refusals(live.prefix)).toEqual(
      ['apiUserDisabled', 'apiUserExpired', 'ipNotAllowed'].map((reason) => ({ reason, success: false })),
    );
    const malformed = await s.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'apiKeyRefused')
      .where('target', 'is', null)
      .execute();
    expect(malformed.map((r) => JSON.parse(r.detail ?? '{}').reason)).toEqual(['malformed', 'malformed']);
    // Creating and revoking are audited too.
    const made = await s.database.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', 'in', ['apiKeyCreate', 'apiKeyRevoke'])
      .where('target', '=', `apiUser:${user}`)
      .execute();
    expect(made.filter((a) => a.action === 'apiKeyCreate')).toHaveLength(4);
    expect(made.filter((a) => a.action === 'apiKeyRevoke')).toHaveLength(1);
  });

  it('answers 429 with Retry-After past the rate limit, per key', async () => {
    const user = await apiUser('HD', { rateLimit: 1000 });
    const limited = (await createKey(admin, user, { codes: ['vehicle-edit'], rateLimit: 3 })).body.key as string;
    const other = (await createKey(admin, user, { codes: ['vehicle-edit'] })).body.key as string;
    const url = `/api/vehicle/vehicle/queryById/${(await vehicleOf('HD-SH')).id}`;
    for (let i = 0; i < 3; i++) expect((await withKey(limited, 'GET', url)).status).toBe(200);
    const over = await withKey(limited, 'GET', url, undefined, { lang: 'en-US' });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('apiKey.rateLimited');
    const retry = Number(over.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.body.message).toBe(`Too many requests: this API key has reached its limit per minute; try again in ${retry} s`);
    // Another key of the same API user has its own count (the API user's default, 1000).
    expect((await withKey(other, 'GET', url)).status).toBe(200);
  });

  it('shows the secret once: never in the list, the API user or its export, and stores only its hash', async () => {
    const user = await apiUser('HD');
    const made = await createKey(admin, user, { codes: ['vehicle-edit'] });
    const key = made.body.key as string;
    const secret = key.slice(21);
    const answers = [
      JSON.stringify((await s.call(admin, 'GET', `/api/vehicle/apiUser/${user}/keys`)).body),
      JSON.stringify((await s.call(admin, 'GET', `/api/vehicle/apiUser/${user}`)).body),
      JSON.stringify((await s.call(admin, 'POST', '/api/vehicle/apiUser/query', { pageSize: 500 })).body),
      JSON.stringify((await s.call(admin, 'PUT', `/api/vehicle/apiKey/${made.body.id}`, { enabled: true })).body),
    ];
    const exported = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/apiUser/export',
      headers: { authorization: `Bearer ${admin}` },
      payload: {},
    });
    expect(exported.statusCode).toBe(200);
    answers.push(JSON.stringify(await readXlsx(exported.rawPayload)));
    expect(answers[0]).toContain(made.body.prefix);
    for (const a of answers) expect(a).not.toContain(secret);
    const row = await s.database.db.selectFrom('api_key').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(crypto.createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
  });
});
