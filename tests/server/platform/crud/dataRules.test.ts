import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isLicencePlate } from '../../../../schemas/kit/vehicleCodes';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { uploadSheet } from '../../../helpers/multipart';
import { xlsxOf } from '../../../helpers/xlsx';

describe('licence plate formats', () => {
  it.each([
    '沪A10137',
    '沪AB1234',
    '沪A1234挂',
    '沪A1234学',
    '沪A1234警',
    '粤Z1234港',
    '沪AD12345',
    '沪AFA1234',
    '沪A12345D',
    '使014578',
    '123456使',
    'WJ沪12345',
    'VA12345',
    '民航A1234',
    '#ABC-1234',
    '#B 12 345',
  ])('accepts %s', (p) => {
    expect(isLicencePlate(p)).toBe(true);
  });
  it.each(['abc', '沪A1013', '沪A101377', '沪I10137', '沪a10137', 'X沪10137', '沪AD123456', '#', '#-AB', '沪A10137 '])(
    'refuses %s',
    (p) => {
      expect(isLicencePlate(p)).toBe(false);
    },
  );
});

describe('every number of every entity schema has a maximum', () => {
  const dir = path.join(__dirname, '../../../../schemas');
  const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
  it.each(files)('%s', (file) => {
    const schema = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      properties: Record<string, { type?: string | string[]; maximum?: number }>;
    };
    const unbounded = Object.entries(schema.properties)
      .filter(([, p]) => [p.type].flat().some((t) => t === 'number' || t === 'integer'))
      .filter(([, p]) => typeof p.maximum !== 'number' || p.maximum > 1e10)
      .map(([k]) => k);
    expect(unbounded).toEqual([]);
  });
});

describe.each(BACKENDS)('what people type, checked and normalised on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });
  const upload = (token: string, url: string, file: Buffer) => uploadSheet(s.app, token, url, file);
  const add = (token: string, body: object) => s.call(token, 'POST', '/api/vehicle/vehicle', body);

  it('trims and upper-cases plates and VINs, refuses what is no plate, and keeps plates unique in the tenant tree', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-add', 'vehicle-edit']);
    const hn = await s.memberToken('HN', 'orgUser', ['vehicle-add']);
    expect(await add(hd, { licence: '   ' })).toMatchObject({ status: 400, body: { message: '车牌号不能为空' } });
    expect(await add(hd, { licence: 'abc' })).toMatchObject({
      status: 400,
      body: { message: '车牌号不是有效的车牌号（外国车牌请以 # 开头，如 #ABC-1234）' },
    });
    // 沪A10137 is a 上海车队 vehicle: 华东 (its tenant) cannot add it again in any spelling, anywhere in its tree.
    for (const licence of [' 沪A10137 ', '沪a10137', '沪A 10137']) {
      expect(await add(hd, { licence })).toMatchObject({
        status: 406,
        body: { message: '车牌号已被本单位的其他车辆使用', errors: [{ field: 'licence' }] },
      });
    }
    expect(await add(hd, { licence: '沪A10137', orgId: await s.orgId('HD-HZ') })).toMatchObject({ status: 406 });
    // The root organisation's tenant is the whole platform.
    expect((await add(admin, { licence: '沪A10137' })).status).toBe(406);
    // Another tenant may hold the same plate.
    expect((await add(hn, { licence: '沪A10137' })).status).toBe(201);
    const ok = await add(hd, { licence: ' 沪ad 12345 ', vin: 'lsvam4187c2184847' });
    expect(ok).toMatchObject({ status: 201, body: { licence: '沪AD12345', vin: 'LSVAM4187C2184847' } });
    expect(await add(hd, { licence: '沪AD12346', vin: 'LSVAM4187C218484I' })).toMatchObject({
      status: 400,
      body: { message: '车架号（VIN）应为17位字母或数字，且不含 I、O、Q' },
    });
    expect((await add(hd, { licence: '#abc-1234' })).body).toMatchObject({ licence: '#ABC-1234' });
    // Renaming onto a plate of the tenant is refused too; keeping one's own plate is not.
    const mine = ok.body.id as number;
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/${mine}`, { licence: '沪a10137' })).status).toBe(406);
    expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/${mine}`, { licence: '沪AD12345', remark: 'same plate' })).status).toBe(200);
  });

  it('refuses numbers past their maximum and a service end before its start, on create, import and renewal alike', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-add', 'vehicle-import', 'vehicle-editService']);
    expect(await add(hd, { licence: '沪AD22345', initialMileage: 1e308 })).toMatchObject({
      status: 400,
      body: { message: '初始里程（公里）不能大于10000000' },
    });
    const range = { licence: '沪AD22346', serviceStart: '2026-06-01', serviceEnd: '2026-05-31' };
    const refused = await add(hd, range);
    expect(refused).toMatchObject({
      status: 400,
      body: { message: '服务到期日期不能早于服务开始日期', errors: [{ field: 'serviceEnd' }] },
    });
    const file = await xlsxOf([
      ['车牌号', '服务开始日期', '服务到期日期'],
      ['沪AD22346', '2026-06-01', '2026-05-31'],
      [' 沪ad 22347', '2026-06-01', '2026-06-01'],
      ['沪AD22347', null, null],
    ]);
    const check = await upload(hd, '/api/vehicle/vehicle/importValidate', file);
    expect(check.body.rows).toEqual([
      {
        row: 2,
        errors: [expect.objectContaining({ field: 'serviceEnd', message: '服务到期日期不能早于服务开始日期（填写的是“2026-05-31”）' })],
      },
      { row: 4, errors: [expect.objectContaining({ field: 'licence', message: '车牌号与第3行重复' })] },
    ]);
    const v = await add(hd, { licence: '沪AD22348', serviceStart: '2026-01-01', serviceEnd: '2026-12-31' });
    expect(
      await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${v.body.id}`, { serviceStart: '2026-06-01', serviceEnd: '2026-05-31' }),
    ).toMatchObject({ status: 400, body: { message: '服务到期日期不能早于服务开始日期' } });
  });

  it('compares organisation codes without case, takes a landline as contact number, and registers an account without expiry', async () => {
    const parentId = await s.orgId('HD');
    const dup = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'hd-sh', name: '另一个上海', parentId });
    expect(dup.status).toBe(406);
    const org = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'HD-NJ', name: '南京车队', parentId, phone: '025-88880005' });
    expect(org.status).toBe(201);
    expect(
      (await s.call(admin, 'POST', '/api/vehicle/org', { code: 'HD-WX', name: '无锡车队', parentId, phone: '12345' })).body.message,
    ).toBe('联系电话格式不正确，可填写手机号或带区号的固定电话（如 025-88880005）');
    const reg = await s.call(admin, 'POST', '/api/passport/passport/register', {
      loginName: 'no-expiry',
      name: '无到期',
      memberType: 'orgUser',
      orgId: parentId,
      password: 'Fleet2026x',
    });
    expect(reg.status).toBe(201);
  });
});

describe.each(BACKENDS)('relation options that tell rows apart on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it("answers a driver's mobile beside the name, so drivers of one name differ", async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['driver-add']);
    for (const mobile of ['13900000101', '13900000102'])
      expect((await s.call(hd, 'PUT', '/api/vehicle/driver', { name: '刘明', mobile })).status).toBe(201);
    const r = await s.call(admin, 'GET', '/api/vehicle/driver/query?q=' + encodeURIComponent('刘明'));
    const mine = (r.body as Array<{ label: string; detail: string }>).filter((o) => o.detail?.startsWith('139000001'));
    expect(mine.map((o) => [o.label, o.detail]).sort()).toEqual([
      ['刘明', '13900000101'],
      ['刘明', '13900000102'],
    ]);
  });
});
