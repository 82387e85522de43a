import { sql } from 'kysely';
import { entities, entityNames, type EntityName } from '../../../../schemas/generated/registry';
import {
  searchableProperties,
  sortableProperties,
  writableProperties,
  type EntitySchema,
  type PropertySchema,
  type SearchMode,
} from '../../../../schemas/kit/entity';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../../helpers/testServer';

type Body = Record<string, unknown>;
interface Ids {
  vehicleId: number;
  driverId: number;
  /** A fuel card of the vehicle, for its transactions. */
  fuelCardId: number;
}

/**
 * One valid body per business entity, the field left out to break it and the §5-style message the
 * server must answer with (zh-CN). Every schema in the registry beyond the first five needs a case.
 */
const CASES: Record<string, { body: (ids: Ids) => Body; missing: string; message: string }> = {
  vehicleModel: { body: () => ({ modelName: 'J6P 牵引车', manufacturer: '一汽解放' }), missing: 'modelName', message: '车型名称不能为空' },
  configParseFile: { body: () => ({ name: 'J6P 解析', enabled: false }), missing: 'name', message: '配置解析名称不能为空' },
  expertFault: {
    body: () => ({
      spn: 110,
      fmi: 0,
      name: '冷却液温度过高',
      unit: '发动机',
      level: 'high',
      description: '冷却液温度超过上限',
      resolvent: '检查冷却系统',
      cases: '2026-10 沪A 一例',
    }),
    missing: 'spn',
    message: '故障SPN不能为空',
  },
  merchant: { body: () => ({ name: '张江汽修', category: 'repair', phone: '13912345678' }), missing: 'name', message: '商户名称不能为空' },
  task: {
    body: (i) => ({ name: '上海-杭州 配送', vehicleId: i.vehicleId, driverId: i.driverId, origin: '上海', destination: '杭州' }),
    missing: 'name',
    message: '任务名称不能为空',
  },
  policy: {
    body: () => ({ name: '高速超速', alarmType: 'OverSpeed', threshold: 100, durationMinutes: 1 }),
    missing: 'alarmType',
    message: '告警类型不能为空',
  },
  park: {
    body: () => ({ name: '张江停车场', capacity: 120, longitude: 121.6, latitude: 31.2 }),
    missing: 'name',
    message: '停车场名称不能为空',
  },
  notice: {
    body: () => ({ title: '系统维护', content: '周六凌晨 2 点维护', level: 'important' }),
    missing: 'content',
    message: '内容不能为空',
  },
  notify: {
    body: () => ({ name: '超速短信', alarmType: 'OverSpeed', channel: 'sms', receivers: '13912345678' }),
    missing: 'channel',
    message: '通知方式不能为空',
  },
  feedback: {
    body: () => ({ title: '轨迹卡顿', content: '回放一个月轨迹时卡顿', category: 'bug' }),
    missing: 'title',
    message: '标题不能为空',
  },
  oilPrice: {
    body: () => ({ region: '上海', fuelGrade: '92号汽油', price: 7.52, effectiveDate: '2026-11-01' }),
    missing: 'price',
    message: '单价（元/升）不能为空',
  },
  oilStation: {
    body: () => ({ name: '中石化张江站', brand: 'sinopec', fuelGrades: '92/95/0号' }),
    missing: 'name',
    message: '加油站名称不能为空',
  },
  businessInfo: {
    body: () => ({ companyName: '华东物流有限公司', creditCode: '91310115MA1K3YJ12X', licenseExpire: '2030-12-31' }),
    missing: 'companyName',
    message: '企业名称不能为空',
  },
  schedule: {
    body: (i) => ({ driverId: i.driverId, vehicleId: i.vehicleId, workDate: '2026-11-24', shift: 'morning' }),
    missing: 'driverId',
    message: '司机不能为空',
  },
  servicePeriod: {
    body: (i) => ({ vehicleId: i.vehicleId, periodStart: '2026-01-01', periodEnd: '2026-12-31', amount: 360, paid: true }),
    missing: 'periodEnd',
    message: '服务结束不能为空',
  },
  endorsement: {
    body: (i) => ({ vehicleId: i.vehicleId, policyNo: 'PDAA2026', endorsementNo: 'E2026-001', changeType: 'coverage' }),
    missing: 'endorsementNo',
    message: '批单号不能为空',
  },
  fence: {
    body: () => ({ name: '张江园区', fenceType: 'circle', geometry: { center: [121.6, 31.2], radius: 500 }, alarmOnExit: false }),
    missing: 'geometry',
    message: '围栏范围不能为空',
  },
  apiUser: { body: () => ({ name: 'TMS 对接', appKey: 'tms_2026_key', rateLimit: 600 }), missing: 'appKey', message: '应用标识不能为空' },
  interMember: {
    body: () => ({ name: 'John Smith', email: 'john@example.com', language: 'en-US', country: 'GB' }),
    missing: 'email',
    message: '邮箱不能为空',
  },
  maintenanceSchedule: {
    body: (i) => ({ name: '一万公里保养', vehicleId: i.vehicleId, intervalKm: 10000, warnKm: 500, intervalDays: 180, warnDays: 10 }),
    missing: 'name',
    message: '计划名称不能为空',
  },
  workOrder: {
    body: (i) => ({ title: '更换机油', vehicleId: i.vehicleId, assignee: '王师傅', parts: '机油 4L', cost: 380 }),
    missing: 'vehicleId',
    message: '车辆不能为空',
  },
  vehicleCost: {
    body: (i) => ({ vehicleId: i.vehicleId, day: '2026-11-20', kind: 'toll', amount: 45.5, remark: '沪杭高速' }),
    missing: 'amount',
    message: '金额（元）不能为空',
  },
  fuelCard: {
    body: (i) => ({ cardNo: '9000123400001111', vehicleId: i.vehicleId, issuer: '中石化' }),
    missing: 'cardNo',
    message: '卡号不能为空',
  },
  reportSchedule: {
    body: () => ({
      name: '每日行驶日报',
      report: 'daily',
      frequency: 'daily',
      sendTime: '07:30',
      recipients: 'fleet@example.com',
      language: 'zh-CN',
    }),
    missing: 'recipients',
    message: '收件人（邮箱）不能为空',
  },
  fuelCardTransaction: {
    body: (i) => ({ cardId: i.fuelCardId, purchasedAt: '2026-11-20T02:00:00.000Z', station: '中石化张江站', litres: 60, amount: 450 }),
    missing: 'litres',
    message: '加油量（升）不能为空',
  },
};

/** Bodies of the entities tests/server/crud.test.ts covers in depth, for the table-driven checks below. */
const OLDER: Record<string, (ids: Ids) => Body> = {
  driver: () => ({ name: '表驱动司机', mobile: '13900009999', licenseClass: 'B2', licenseExpire: '2029-06-30' }),
  fuelType: () => ({ name: '表驱动燃料', category: 'diesel', price: 7.1 }),
  terminal: () => ({ terminalNo: 'TGEN0001', sim: '14500009999', productionDate: '2025-05-01' }),
  vehicle: () => ({ licence: '沪Z99999', vin: 'LSVAM4187C2199999', customer: '表驱动客户', serviceEnd: '2029-12-31' }),
  vehicleBrand: () => ({ name: '表驱动品牌', manufacturer: '表驱动制造', country: '中国' }),
};
const bodyOf = (name: string, ids: Ids) => (OLDER[name] ?? CASES[name].body)(ids);

/** A writable plain text property an edit can change (no format, pattern, enum or relation). */
function plainText(schema: EntitySchema): [string, PropertySchema] | undefined {
  return writableProperties(schema).find(([, p]) => {
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
    return type === 'string' && !p.format && !p.pattern && !p.enum && !p['x-ref'] && (p.maxLength ?? 100) >= 12;
  });
}

/** A criterion matching `value` in `mode` (like: the value itself is contained; range: [v, v]). */
const criterion = (mode: SearchMode, value: unknown) => (mode === 'range' ? [value, value] : value);

const route = (name: string, op: 'create' | 'get' | 'remove', id?: number) => {
  const [method, path] = entities[name as keyof typeof entities]['x-entity'].routes[op]![0].split(' ');
  return [method as 'GET', '/api' + path.replace('{id}', String(id))] as const;
};

describe.each(BACKENDS)('business entities on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let ids: Ids;
  beforeAll(async () => {
    s = await startTestServer(backend);
    admin = await s.login('admin', ADMIN_PASSWORD);
    const pick = async (url: string) => (await s.call(admin, 'POST', url, { pageSize: 1 })).body.data[0].id as number;
    const vehicleId = await pick('/api/vehicle/vehicle/query');
    const card = await s.call(admin, 'POST', '/api/vehicle/fuelCard', { cardNo: 'CASE-CARD-0001', vehicleId });
    ids = { vehicleId, driverId: await pick('/api/vehicle/driver/query'), fuelCardId: card.body.id };
  });
  afterAll(() => s.close());

  it('has a case for every entity schema', () => {
    const older = ['driver', 'fuelType', 'terminal', 'vehicle', 'vehicleBrand'];
    expect(Object.keys(CASES).sort()).toEqual(entityNames.filter((n) => !older.includes(n)).sort());
  });

  it.each(Object.keys(CASES))('%s: creates (201) with the values back, reads it, deletes it (204)', async (name) => {
    const body = CASES[name].body(ids);
    const created = await s.call(admin, ...route(name, 'create'), body);
    expect({ name, status: created.status }).toEqual({ name, status: 201 });
    expect(created.body).toMatchObject(body);
    const got = await s.call(admin, ...route(name, 'get', created.body.id));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject(body);
    expect((await s.call(admin, ...route(name, 'remove', created.body.id))).status).toBe(204);
    expect((await s.call(admin, ...route(name, 'get', created.body.id))).status).toBe(404);
  });

  it.each(Object.keys(CASES))('%s: answers a missing required field with 400 and its localised message', async (name) => {
    const { [CASES[name].missing]: _left, ...body } = CASES[name].body(ids);
    const r = await s.call(admin, ...route(name, 'create'), body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, message: CASES[name].message });
    expect(r.body.errors).toContainEqual({ field: CASES[name].missing, key: 'validation.required', message: CASES[name].message });
  });

  describe.each(entityNames)('%s, table-driven from its schema', (name) => {
    const schema = entities[name as EntityName];
    const x = schema['x-entity'];
    const at = (op: 'query' | 'update' | 'remove', id?: number) => {
      const [method, path] = x.routes[op]![0].split(' ');
      return [method as 'POST', '/api' + path.replace('{id}', String(id))] as const;
    };
    const list = async (body: Record<string, unknown>) => s.call(admin, ...at('query'), { pageSize: 10000, ...body });
    let row: Record<string, unknown>;
    beforeAll(async () => {
      const created = await s.call(admin, ...route(name, 'create'), bodyOf(name, ids));
      expect({ name, status: created.status, body: created.body }).toMatchObject({ name, status: 201 });
      row = (await s.call(admin, ...route(name, 'get', created.body.id))).body;
    });
    afterAll(async () => {
      if (row) await s.call(admin, ...at('remove', row.id as number));
    });

    it('lists pages with a total; refuses a page size of 0 (400)', async () => {
      const page = await s.call(admin, ...at('query'), { pageIndex: 1, pageSize: 5 });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ pageIndex: 1, pageSize: 5, totalExact: true });
      expect(page.body.data.length).toBe(Math.min(5, page.body.total));
      expect((await list({})).body.data.map((r: { id: number }) => r.id)).toContain(row.id);
      const bad = await s.call(admin, ...at('query'), { pageIndex: 1, pageSize: 0 });
      expect(bad).toMatchObject({ status: 400, body: { success: false, errors: [{ field: 'pageSize', key: 'validation.minimum' }] } });
    });

    it('finds the row by each searchable property and by keyword; refuses a criterion it cannot search (400)', async () => {
      for (const [prop, , mode] of searchableProperties(schema)) {
        if (row[prop] === undefined) continue;
        const r = await list({ criteria: { [prop]: criterion(mode, row[prop]) } });
        expect({ prop, status: r.status }).toEqual({ prop, status: 200 });
        expect({ prop, found: r.body.data.some((d: { id: number }) => d.id === row.id) }).toEqual({ prop, found: true });
      }
      const word = (x.keyword ?? []).map((k) => row[k]).find((v) => typeof v === 'string' && v.length > 1) as string | undefined;
      if (x.keyword?.length) {
        expect(word).toBeDefined();
        const r = await list({ criteria: { keyword: word!.slice(1) } });
        expect(r.body.data.map((d: { id: number }) => d.id)).toContain(row.id);
      }
      const bad = await list({ criteria: { notAField: 'x' } });
      expect(bad).toMatchObject({ status: 400, body: { errors: [{ field: 'criteria.notAField', key: 'validation.notSearchable' }] } });
    });

    it('sorts by each sortable property both ways; refuses an order it cannot sort by (400)', async () => {
      for (const property of sortableProperties(schema)) {
        const asc = await list({ order: { property, direction: 'ASC' } });
        const desc = await list({ order: { property, direction: 'DESC' } });
        expect({ property, status: [asc.status, desc.status] }).toEqual({ property, status: [200, 200] });
        const ids = (r: typeof asc) => r.body.data.map((d: { id: number }) => d.id);
        expect({ property, desc: ids(desc) }).toEqual({ property, desc: [...ids(asc)].reverse() });
        const values = asc.body.data
          .map((d: Record<string, unknown>) => d[property])
          .filter((v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)));
        expect({ property, ordered: values.every((v: number | string, i: number) => i === 0 || values[i - 1] <= v) }).toEqual({
          property,
          ordered: true,
        });
      }
      const unsortable = Object.keys(schema.properties).find((p) => !schema.properties[p]['x-ui']?.sort)!;
      const bad = await list({ order: { property: unsortable, direction: 'ASC' } });
      expect(bad).toMatchObject({ status: 400, body: { errors: [{ field: 'order.property', key: 'validation.notSortable' }] } });
    });

    it('edits a field (200, stored); refuses a value the schema forbids (400 on the field, nothing stored)', async () => {
      const text = plainText(schema);
      expect({ name, editable: !!text }).toEqual({ name, editable: true });
      const [prop, p] = text!;
      const edited = await s.call(admin, ...at('update', row.id as number), { [prop]: '表驱动编辑' });
      expect({ status: edited.status, value: edited.body[prop] }).toEqual({ status: 200, value: '表驱动编辑' });
      expect((await s.call(admin, ...route(name, 'get', row.id as number))).body[prop]).toBe('表驱动编辑');
      const tooLong = 'x'.repeat((p.maxLength ?? 100) + 1);
      const bad = await s.call(admin, ...at('update', row.id as number), { [prop]: p.maxLength ? tooLong : 12 }, 'en-US');
      expect(bad).toMatchObject({
        status: 400,
        body: { success: false, errors: [{ field: prop, key: p.maxLength ? 'validation.maxLength' : 'validation.type' }] },
      });
      expect((await s.call(admin, ...route(name, 'get', row.id as number))).body[prop]).toBe('表驱动编辑');
    });

    it('deletes (204, gone); refuses an id that is no number (400) and an unknown one (404)', async () => {
      expect((await s.call(admin, ...at('remove', 'abc' as unknown as number))).status).toBe(400);
      expect((await s.call(admin, ...at('remove', 2147483647))).status).toBe(404);
      expect((await s.call(admin, ...at('remove', row.id as number))).status).toBe(204);
      expect((await s.call(admin, ...route(name, 'get', row.id as number))).status).toBe(404);
      expect((await list({})).body.data.map((r: { id: number }) => r.id)).not.toContain(row.id);
    });
  });

  it('speaks the §5 required messages in every language', async () => {
    const expectations: Array<[string, string, string]> = [
      ['vehicleModel', 'en-US', 'Model name is required'],
      ['configParseFile', 'es-ES', 'Nombre de la resolución de configuración es obligatorio'],
      ['expertFault', 'ja-JP', '故障SPNは必須です'],
    ];
    for (const [name, lang, message] of expectations) {
      const { [CASES[name].missing]: _left, ...body } = CASES[name].body(ids);
      expect((await s.call(admin, ...route(name, 'create'), body, lang)).body.message).toBe(message);
    }
  });

  it('refuses bad values on the field: geometry shape, SPN range, duplicate SPN/FMI', async () => {
    const bad = await s.call(admin, 'PUT', '/api/vehicle/fence', { name: '坏围栏', fenceType: 'polygon', geometry: { points: [[1, 2]] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toMatch(/^geometry/);
    const spn = await s.call(admin, 'POST', '/api/vehicle/expertFault', { ...CASES.expertFault.body(ids), spn: 600000 });
    expect(spn.body.message).toBe('故障SPN不能大于524287');
    expect((await s.call(admin, 'POST', '/api/vehicle/expertFault', CASES.expertFault.body(ids))).status).toBe(201);
    const dup = await s.call(admin, 'POST', '/api/vehicle/expertFault', CASES.expertFault.body(ids));
    expect(dup).toMatchObject({ status: 406, body: { message: '故障SPN、故障FMI已存在' } });
  });

  it('stamps the latest operator and time of configuration parse files', async () => {
    const hd = await s.addMember('HD', 'orgUser', ['configParseFile-add', 'configParseFile-edit']);
    const created = await s.call(hd.token, 'POST', '/api/vehicle/configParseFile', { name: '解析A', latestOperator: 'forged' });
    expect(created.body).toMatchObject({ name: '解析A', enabled: true, latestOperator: hd.loginName });
    const first = Date.parse(created.body.latestOperatedAt);
    expect(Date.now() - first).toBeLessThan(60_000);
    const edited = await s.call(admin, 'PUT', `/api/vehicle/configParseFile/${created.body.id}`, { enabled: false });
    expect(edited.body.latestOperator).not.toBe(hd.loginName);
    expect(Date.parse(edited.body.latestOperatedAt)).toBeGreaterThanOrEqual(first);
  });

  it('opens and stops a geofence only through its own calls, inside the caller scope', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['fence-add', 'fence-edit', 'fence-open', 'fence-stop']);
    const f = await s.call(hd, 'PUT', '/api/vehicle/fence', CASES.fence.body(ids));
    expect(f.body.status).toBe('open');
    expect((await s.call(hd, 'PUT', `/api/vehicle/fence/${f.body.id}`, { status: 'stopped' })).body.status).toBe('open'); // read-only
    expect((await s.call(hd, 'POST', `/api/vehicle/fence/stop/${f.body.id}`)).body.status).toBe('stopped');
    expect((await s.call(hd, 'POST', `/api/vehicle/fence/open/${f.body.id}`)).body.status).toBe('open');
    const hn = await s.memberToken('HN', 'orgUser', ['fence-stop']);
    expect((await s.call(hn, 'POST', `/api/vehicle/fence/stop/${f.body.id}`)).status).toBe(404);
    expect((await s.call(await s.memberToken('HD', 'orgUser', []), 'POST', `/api/vehicle/fence/stop/${f.body.id}`)).status).toBe(403);
  });

  it('resets an international member password once, keeping only its hash', async () => {
    const m = await s.call(admin, 'POST', '/api/vehicle/interMember', { name: 'Ana García', email: 'ana@example.es', language: 'es-ES' });
    expect((await s.call(admin, 'POST', `/api/vehicle/interMember/${m.body.id}`, { country: 'ES' })).body.country).toBe('ES');
    const r = await s.call(admin, 'POST', `/api/vehicle/interMember/reset/${m.body.id}`, undefined, 'en-US');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: 'Password reset; give the new password to the member' });
    expect(r.body.password).toMatch(/^[A-Za-z0-9]{12}$/);
    const stored = await sql<{ h: string }>`SELECT password_hash AS h FROM inter_member WHERE id = ${m.body.id}`.execute(s.database.db);
    expect(stored.rows[0].h).not.toContain(r.body.password);
    const got = await s.call(admin, 'GET', `/api/vehicle/interMember/${m.body.id}`);
    expect(got.body.passwordResetAt).toBeDefined();
    expect(JSON.stringify(got.body)).not.toContain(stored.rows[0].h);
    expect(
      (await s.call(await s.memberToken('HN', 'orgUser', ['interMember-reset']), 'POST', `/api/vehicle/interMember/reset/${m.body.id}`))
        .status,
    ).toBe(404);
  });
  describe('vehicle extras', () => {
    const codes = ['vehicle-add', 'terminal-add', 'vehicle-bind', 'vehicle-unbind', 'vehicle-editService', 'terminal-renew'];
    const make = async (token: string, n: string) => {
      const v = await s.call(token, 'POST', '/api/vehicle/vehicle', { licence: `沪B${n}0` });
      const t = await s.call(token, 'PUT', '/api/vehicle/terminal', { terminalNo: `BIND${n}`, sim: `1450000${n}` });
      expect([v.status, t.status]).toEqual([201, 201]);
      return { vehicle: v.body.id as number, terminal: t.body.id as number };
    };

    it('binds a terminal to a vehicle and unbinds it; a terminal bound elsewhere is 406', async () => {
      const hd = await s.memberToken('HD', 'orgUser', codes);
      const a = await make(hd, '0001');
      const b = await make(hd, '0002');
      const bound = await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${a.vehicle}/${a.terminal}`);
      expect(bound.status).toBe(200);
      expect(bound.body).toMatchObject({ id: a.vehicle, terminalId: a.terminal, terminalNo: 'BIND0001' });
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${a.vehicle}/${a.terminal}`)).status).toBe(200); // again: no change
      const taken = await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${b.vehicle}/${a.terminal}`);
      expect(taken).toMatchObject({ status: 406, body: { success: false, message: '该终端已绑定其他车辆' } });
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${b.vehicle}/${a.terminal}`, undefined, 'en-US')).body.message).toBe(
        'This terminal is already bound to another vehicle',
      );
      const busy = await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${a.vehicle}/${b.terminal}`);
      expect(busy).toMatchObject({ status: 406, body: { message: '该车辆已绑定终端，请先解绑' } });

      const unbound = await s.call(hd, 'PUT', `/api/vehicle/vehicle/unbind/${a.vehicle}`);
      expect(unbound.status).toBe(200);
      expect(unbound.body.terminalId).toBeUndefined();
      expect(await s.call(hd, 'PUT', `/api/vehicle/vehicle/unbind/${a.vehicle}`)).toMatchObject({
        status: 406,
        body: { message: '该车辆未绑定终端' },
      });
      // Now free, the terminal binds to the other vehicle.
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${b.vehicle}/${a.terminal}`)).body.terminalNo).toBe('BIND0001');
    });

    it('keeps bind and unbind inside the caller subtree and behind their codes', async () => {
      const hd = await s.memberToken('HD', 'orgUser', codes);
      const mine = await make(hd, '0003');
      const hn = await s.memberToken('HN', 'orgUser', codes);
      const theirs = await make(hn, '0004');
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${mine.vehicle}/${theirs.terminal}`)).status).toBe(404);
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${theirs.vehicle}/${mine.terminal}`)).status).toBe(404);
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/unbind/${theirs.vehicle}`)).status).toBe(404);
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/bind/${mine.vehicle}/abc`)).status).toBe(400);
      const noCode = await s.memberToken('HD', 'orgUser', ['vehicle-add']);
      expect((await s.call(noCode, 'PUT', `/api/vehicle/vehicle/bind/${mine.vehicle}/${mine.terminal}`)).status).toBe(403);
      expect((await s.call(noCode, 'PUT', `/api/vehicle/vehicle/unbind/${mine.vehicle}`)).status).toBe(403);
    });

    it('edits the service period of vehicles and terminals, refusing an end before the start', async () => {
      const hd = await s.memberToken('HD', 'orgUser', codes);
      const x = await make(hd, '0005');
      const v = await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${x.vehicle}`, {
        serviceStart: '2026-01-01',
        serviceEnd: '2026-12-31',
      });
      expect(v).toMatchObject({ status: 200, body: { serviceStart: '2026-01-01', serviceEnd: '2026-12-31' } });
      // Only the end: the stored start stays and is checked against.
      expect((await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${x.vehicle}`, { serviceEnd: '2027-12-31' })).body).toMatchObject({
        serviceStart: '2026-01-01',
        serviceEnd: '2027-12-31',
      });
      const back = await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${x.vehicle}`, { serviceEnd: '2025-06-30' });
      expect(back).toMatchObject({ status: 400, body: { message: '服务到期日期不能早于服务开始日期', errors: [{ field: 'serviceEnd' }] } });
      // Both given: the schema's rule, the same words.
      const both = await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${x.vehicle}`, {
        serviceStart: '2026-02-01',
        serviceEnd: '2026-01-31',
      });
      expect(both).toMatchObject({ status: 400, body: { message: '服务到期日期不能早于服务开始日期', errors: [{ field: 'serviceEnd' }] } });
      const missing = await s.call(hd, 'PUT', `/api/vehicle/vehicle/editService/${x.vehicle}`, { serviceStart: '2026-01-01' });
      expect(missing).toMatchObject({ status: 400, body: { message: '服务到期日期不能为空' } });
      const t = await s.call(hd, 'PUT', `/api/vehicle/terminal/editService/${x.terminal}`, {
        serviceStart: null,
        serviceEnd: '2028-01-31',
      });
      expect(t.status).toBe(200);
      expect(t.body.serviceEnd).toBe('2028-01-31');
      expect(t.body.serviceStart).toBeUndefined();
      const hn = await s.memberToken('HN', 'orgUser', codes);
      expect((await s.call(hn, 'PUT', `/api/vehicle/terminal/editService/${x.terminal}`, { serviceEnd: '2029-01-01' })).status).toBe(404);
    });
  });
});
