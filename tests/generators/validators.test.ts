import fs from 'node:fs';
import path from 'node:path';
import { schemaEntities as entities, type SchemaName as EntityName } from '../../schemas/generated/registry';
import { bodyValidators } from '../../schemas/generated/validators';
import { createAjv } from '../../schemas/kit/ajv';
import { translator } from '../../schemas/kit/catalogue';
import { createBodySchema, normaliseBody, updateBodySchema } from '../../schemas/kit/entity';
import { renderFieldError, toFieldErrors } from '../../schemas/kit/errors';
import { BACKENDS, useTestServer, type TestServer } from '../helpers/testServer';

type Body = Record<string, unknown>;

/** Good and bad bodies of several entities, covering our formats, ajv-formats', patterns, ranges and enums. */
const CASES: Array<{ entity: EntityName; good: Body[]; bad: Body[] }> = [
  {
    entity: 'vehicle',
    good: [
      { licence: '沪A12345', vin: 'LSVAM4187C2184847', status: 'repair', serviceEnd: '2026-12-31' },
      { licence: '#X1', driverId: null, remark: '' },
    ],
    bad: [
      { licence: '', vin: 'LSVAM4187C218484I', status: 'lost', serviceEnd: '2026-02-30', tankCapacity: 2001, colour: 'red' },
      { vin: 'short', initialMileage: -1, plateColor: 'pink', brandId: 'one' },
      { licence: 'x'.repeat(17), serviceStart: '31/12/2026' },
    ],
  },
  {
    entity: 'driver',
    good: [{ name: '张三', mobile: '13800138000', licenseClass: 'A1', licenseExpire: '2030-01-01' }],
    bad: [
      { name: '张三', mobile: '12345' },
      { mobile: '', licenseClass: 'Z9', gender: 'x' },
    ],
  },
  {
    entity: 'vehicleBrand',
    good: [{ name: '解放', logo: 'https://example.com/logo.png', enabled: false }],
    bad: [
      { name: '解放', logo: 'ftp://example.com/x.png' },
      { name: 1, enabled: 'yes' },
    ],
  },
  {
    entity: 'interMember',
    good: [{ name: 'John', email: 'john@example.com', language: 'en-US', expireDate: '2027-01-31' }],
    bad: [
      { name: 'John', email: 'not-an-email', language: 'fr-FR' },
      { name: 'x', email: 'a@b.co', mobile: 'abc' },
    ],
  },
  {
    entity: 'notice',
    good: [{ title: '维护', content: '周六', publishAt: '2026-11-24T08:30:00.000Z' }],
    bad: [
      { title: '维护', content: '周六', publishAt: '2026-11-24 08:30' },
      { title: '', content: '' },
    ],
  },
  {
    entity: 'fence',
    good: [{ name: '园区', fenceType: 'circle', geometry: { center: [121.6, 31.2], radius: 500 } }],
    bad: [
      { name: '园区', fenceType: 'polygon', geometry: { points: [[1, 2]] } },
      { name: '园区', geometry: '{oops' },
    ],
  },
  {
    entity: 'member',
    // (A good create body carries the write-only password, which an update refuses: tested below.)
    good: [],
    bad: [
      { loginName: 'li ming', name: '', memberType: 'boss', expireDate: '2026-13-01', password: '1', mobile: '123' },
      { roleIds: [0], applications: ['web'] },
    ],
  },
  {
    entity: 'organisation',
    good: [{ code: 'HD-SZ', name: '苏州车队', parentId: 2, type: 'serviceTeam', phone: '13900000001', themeColor: '#1677ff' }],
    bad: [{ code: 'HD SZ', name: '', parentId: 0, type: 'team', themeColor: 'blue', logo: 'ftp://x' }],
  },
  {
    entity: 'expertFault',
    good: [{ spn: 110, fmi: 0, name: '过热', unit: '发动机', level: 'high', description: 'd', resolvent: 'r' }],
    bad: [{ spn: 600000, fmi: 32, name: '过热', unit: '发动机', description: 'd', resolvent: 'r' }, { spn: 1.5 }],
  },
];

const serverValidator = (entity: EntityName, kind: 'create' | 'update') =>
  createAjv().compile(kind === 'create' ? createBodySchema(entities[entity]) : updateBodySchema(entities[entity]));

/** Field errors of one validator on a body, after the server's '' → null step. */
function fieldErrors(validate: ReturnType<typeof serverValidator>, entity: EntityName, body: Body) {
  const copy = structuredClone(body);
  normaliseBody(entities[entity], copy);
  return validate(copy) ? [] : toFieldErrors(validate.errors, `entity.${entity}.fields`);
}

describe('precompiled body validators (schemas/generated/validators.ts)', () => {
  it('exist for the create and update body of every entity', () => {
    expect(Object.keys(bodyValidators).sort()).toEqual(Object.keys(entities).sort());
    for (const v of Object.values(bodyValidators)) expect([typeof v.create, typeof v.update]).toEqual(['function', 'function']);
  });

  it('take a write-only property (the password) in the create body and refuse it in the update body', () => {
    const body = {
      loginName: 'li.ming',
      name: '李明',
      memberType: 'orgUser',
      expireDate: null,
      password: 'Fleet2026x',
      roleIds: [3],
      applications: ['obd-web'],
    };
    const errs = (kind: 'create' | 'update') =>
      fieldErrors(bodyValidators.member[kind] as ReturnType<typeof serverValidator>, 'member', body);
    expect(errs('create')).toEqual([]);
    expect(errs('update')).toEqual([{ field: 'password', key: 'validation.unknownField', params: { field: 'password' } }]);
  });

  describe.each(CASES)('$entity', ({ entity, good, bad }) => {
    it.each(['create', 'update'] as const)('give the server validator’s field errors on %s bodies, good and bad', (kind) => {
      for (const body of [...good, ...bad]) {
        const ours = fieldErrors(bodyValidators[entity][kind] as ReturnType<typeof serverValidator>, entity, body);
        const server = fieldErrors(serverValidator(entity, kind), entity, body);
        expect({ body, ours }).toEqual({ body, ours: server });
      }
      for (const body of good)
        expect(fieldErrors(bodyValidators[entity][kind] as ReturnType<typeof serverValidator>, entity, body)).toEqual([]);
      if (kind === 'create')
        for (const body of bad)
          expect(fieldErrors(bodyValidators[entity].create as ReturnType<typeof serverValidator>, entity, body).length).toBeGreaterThan(0);
    });
  });

  it('reach every format through the imported format tables, never compiling or inlining one', () => {
    const code = fs.readFileSync(path.resolve(__dirname, '../../schemas/generated/validators.ts'), 'utf8');
    expect(code).toContain(`import { customFormats } from '../kit/formats';`);
    expect(code).toContain(`import { fullFormats } from 'ajv-formats/dist/formats';`);
    expect(code).toMatch(/= formats\.phone;/);
    expect(code).toMatch(/= formats\["date-time"\];/);
    expect(code).toMatch(/= formats\.email;/);
    // The phone and external-link expressions live in schemas/kit/formats.ts only.
    expect(code).not.toContain('\\d{3,4}\\d{8}');
    expect(code).not.toContain('https?:|mailto:|tel:');
    expect(code).not.toMatch(/\bnew Function\b|\beval\(|\brequire\(/);
  });
});

describe.each(BACKENDS)('the same words as the server on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it.each(['zh-CN', 'en-US'])('renders the field messages of a refused create in %s as the server answers them', async (lang) => {
    const t = translator(lang as 'zh-CN' | 'en-US');
    for (const { entity, bad } of CASES) {
      const [method, route] = entities[entity]['x-entity'].routes.create![0].split(' ');
      for (const body of bad) {
        const r = await s.call(admin, method as 'POST', '/api' + route, body, lang);
        expect({ entity, body, status: r.status }).toEqual({ entity, body, status: 400 });
        const ours = fieldErrors(bodyValidators[entity].create as ReturnType<typeof serverValidator>, entity, body).map((fe) => ({
          field: fe.field,
          key: fe.key,
          message: renderFieldError(fe, t),
        }));
        expect({ entity, body, errors: r.body.errors }).toEqual({ entity, body, errors: ours });
      }
    }
  });

  it('accepts on the server what the precompiled validator accepts', async () => {
    for (const { entity, good } of CASES) {
      const [method, route] = entities[entity]['x-entity'].routes.create![0].split(' ');
      for (const body of good) {
        // Unique names per run: the bodies are also created by other cases of this file.
        const unique = {
          ...body,
          ...('name' in body ? { name: `${body.name}-${backend}-${Math.random().toString(36).slice(2, 8)}` } : {}),
        };
        if (entity === 'vehicle')
          Object.assign(unique, { licence: `#V${Math.random().toString(36).slice(2, 9).toUpperCase()}`, vin: undefined });
        if (entity === 'expertFault') Object.assign(unique, { spn: 100000 + Math.floor(Math.random() * 400000) });
        expect(bodyValidators[entity].create(structuredClone(unique))).toBe(true);
        const r = await s.call(admin, method as 'POST', '/api' + route, unique);
        expect({ entity, status: r.status, body: r.body }).toMatchObject({ entity, status: 201 });
      }
    }
  });
});
