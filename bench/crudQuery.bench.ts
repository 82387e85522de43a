import { withVehicleBench } from './fixtures';
import { summarise, type BenchResult } from './lib';

/**
 * The generic query (search + sort + page) over 100,000 vehicles, through the real app (auth,
 * validation, SQL, serialisation) on PGlite and on PostgreSQL. DESIGN.md budget: p95 < 50 ms.
 */
const ROWS = Number(process.env.BENCH_ROWS || 100_000);
const RUNS = Number(process.env.BENCH_RUNS || 200);

async function runOn(kind: 'pglite' | 'postgres'): Promise<BenchResult> {
  return withVehicleBench(kind, ROWS, async ({ app, token, fillMs }) => {
    // Each shape names what it exercises, so a slow figure points at its cause.
    const bodies: Array<[string, (i: number) => Record<string, unknown>]> = [
      [
        'keyword',
        (i) => ({
          criteria: { keyword: `A0${(i % 90) + 10}` },
          order: { property: 'licence', direction: 'ASC' },
          pageIndex: 1 + (i % 5),
          pageSize: 20,
        }),
      ],
      [
        'likeShort',
        (i) => ({ criteria: { licence: `${i % 1000}` }, order: { property: 'updatedAt', direction: 'DESC' }, pageIndex: 1, pageSize: 20 }),
      ],
      [
        'likeCjk',
        (i) => ({
          criteria: { customer: `客户${i % 997}` },
          order: { property: 'licence', direction: 'DESC' },
          pageIndex: 2,
          pageSize: 50,
        }),
      ],
      ['deepPage', () => ({ order: { property: 'licence', direction: 'ASC' }, pageIndex: 100, pageSize: 20 })],
    ];
    const call = (i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/vehicle/vehicle/query',
        headers: { authorization: `Bearer ${token}` },
        payload: bodies[i % bodies.length][1](i),
      });
    for (let i = 0; i < 20; i++) await call(i); // warm-up
    const samples: number[] = [];
    const byShape = new Map<string, number[]>(bodies.map(([name]) => [name, []]));
    for (let i = 0; i < RUNS; i++) {
      const s = process.hrtime.bigint();
      const r = await call(i);
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      samples.push(ms);
      byShape.get(bodies[i % bodies.length][0])!.push(ms);
      if (r.statusCode !== 200) throw new Error(r.body);
    }
    const shapes = Object.fromEntries([...byShape].map(([name, ms]) => [name, summarise(ms)]));
    return { name: `crud.query.vehicle.${kind}`, rows: ROWS, fillMs, ...summarise(samples), budgetP95Ms: 50, shapes };
  });
}

export async function run(): Promise<BenchResult[]> {
  return [await runOn('pglite'), await runOn('postgres')];
}

if (require.main === module) {
  run().then((rs) => rs.forEach((r) => console.log(JSON.stringify(r))));
}
