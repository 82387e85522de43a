import { sql } from 'kysely';
import { queryIndexSql } from '../../../../generators/lib/indexSql';
import { entityFiles } from '../../../../schemas/generated/registry';
import { COUNT_CAP } from '../../../../server/platform/paging';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../../helpers/testServer';

/** Paging over more rows than the count cap, and the query shapes the list performance relies on. */
describe.each(BACKENDS)('generic query paging on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let seeded: number;
  const EXTRA = COUNT_CAP + 50;
  const query = (body: unknown, token = admin) => s.call(token, 'POST', '/api/vehicle/vehicle/query', body);

  beforeAll(async () => {
    s = await startTestServer(backend);
    admin = await s.login('admin', ADMIN_PASSWORD);
    seeded = (await query({})).body.total;
    const org = await s.orgId('HD-SH');
    const n = Array.from({ length: EXTRA }, (_, i) => i);
    // Every fifth vehicle has the same customer, so sorting by it has many ties.
    await sql`INSERT INTO vehicle (licence, customer, org_id)
      SELECT * FROM unnest(${n.map((i) => `测P${String(i).padStart(6, '0')}`)}::text[], ${n.map((i) => (i % 5 ? `客户${i}` : '同名客户'))}::text[], ${n.map(() => org)}::int[])`.execute(
      s.database.db,
    );
    await sql`ANALYZE vehicle`.execute(s.database.db);
  });
  afterAll(() => s.close());

  it('stops counting at the cap and says so, with a total that still reaches the requested page', async () => {
    const first = await query({ pageSize: 20 });
    expect(first.body).toMatchObject({ total: COUNT_CAP, totalExact: false, pageIndex: 1, pageSize: 20 });
    expect(first.body.data).toHaveLength(20);
    // Past the cap the count runs to the end of the requested page, so that page is never beyond the total.
    const deep = await query({ pageIndex: COUNT_CAP / 20 + 1, pageSize: 20 });
    expect(deep.body).toMatchObject({ total: COUNT_CAP + 20, totalExact: false });
    // The last page is not full: its total is exact without counting.
    const all = seeded + EXTRA;
    const last = await query({ pageIndex: Math.ceil(all / 20), pageSize: 20 });
    expect(last.body).toMatchObject({ total: all, totalExact: true });
    expect(last.body.data).toHaveLength(all % 20 || 20);
    // A page past the end is empty and still tells the exact total.
    const past = await query({ pageIndex: Math.ceil(all / 20) + 3, pageSize: 20 });
    expect(past.body).toMatchObject({ data: [], total: all, totalExact: true });
  });

  it('counts exactly below the cap', async () => {
    const r = await query({ criteria: { licence: '测P00' }, pageSize: 10 });
    expect(r.body).toMatchObject({ total: 10000, totalExact: true });
    const few = await query({ criteria: { licence: '测P0000' }, pageSize: 10 });
    expect(few.body).toMatchObject({ total: 100, totalExact: true });
  });

  it('pages through ties in a stable order, both directions, without overlap or gaps', async () => {
    for (const direction of ['ASC', 'DESC']) {
      const ids: number[] = [];
      for (let pageIndex = 1; pageIndex <= 4; pageIndex++) {
        const r = await query({ criteria: { customer: '同名客户' }, order: { property: 'customer', direction }, pageIndex, pageSize: 700 });
        ids.push(...r.body.data.map((v: { id: number }) => v.id));
      }
      expect(ids).toHaveLength(EXTRA / 5);
      expect(new Set(ids).size).toBe(ids.length);
      const sorted = [...ids].sort((a, b) => (direction === 'ASC' ? a - b : b - a));
      expect(ids).toEqual(sorted); // ties broken by id, running the same way as the sort
    }
  });

  it('searches the keyword case-insensitively across own columns and relation labels, never across a column boundary', async () => {
    // Letters: ILIKE; digits and Chinese only: LIKE (same answer); a VIN shown upper-case, searched lower-case.
    const vin = (await query({ criteria: { keyword: 'lfw' }, pageSize: 100 })).body;
    expect(vin.total).toBeGreaterThan(0);
    expect(vin.data.every((v: { vin: string }) => v.vin.startsWith('LFW'))).toBe(true);
    expect((await query({ criteria: { keyword: '测P000012' } })).body.data.map((v: { licence: string }) => v.licence)).toEqual([
      '测P000012',
    ]);
    expect((await query({ criteria: { keyword: '808000000003' } })).body.data.map((v: { terminalNo: string }) => v.terminalNo)).toEqual([
      '808000000003',
    ]);
    // The end of the licence and the start of the customer, joined, match nothing.
    expect((await query({ criteria: { keyword: '012客户' } })).body.total).toBe(0);
    // The separator between columns is stripped from a keyword, so it cannot bridge them either.
    expect((await query({ criteria: { keyword: '2\u001f客' } })).body.total).toBe(0);
  });

  it('filters by an organisation subtree and keeps other subtrees out', async () => {
    expect((await query({ criteria: { orgId: await s.orgId('HN') }, pageSize: 5 })).body).toMatchObject({ total: 8, totalExact: true });
    expect((await query({ criteria: { orgId: await s.orgId('HD') }, pageSize: 5 })).body).toMatchObject({
      total: COUNT_CAP,
      totalExact: false,
    });
    const hn = await s.memberToken('HN', 'orgUser');
    expect((await query({ criteria: { keyword: '测P' } }, hn)).body).toMatchObject({ total: 0, totalExact: true });
  });

  it('has every index the schemas call for after migrating', async () => {
    const present = new Set(
      (await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes`.execute(s.database.db)).rows.map((r) => r.indexname),
    );
    const wanted = Object.values(entityFiles).flatMap((f) =>
      queryIndexSql(f, entityFiles).map((stmt) => /INDEX IF NOT EXISTS (\w+)/.exec(stmt)![1]),
    );
    expect(wanted).toContain('vehicle_keyword_trgm');
    expect(wanted.filter((name) => !present.has(name))).toEqual([]);
  });
});
