/**
 * A batch that fails because the database is away is written again until it is back, and its
 * records are acknowledged only then; a batch the database refuses for what it holds fails at
 * once; shutting down stops the waiting. The classifier is checked on pg's real errors.
 */
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../../../server/platform/db/tables';
import type { TerminalIdentity } from '../../../../server/platform/telemetry';
import { isTransientDbError } from '../../../../server/platform/db/transient';
import { BatchWriter, type RecordStore } from '../../../../server/telematics/store/batchWriter';
import { privatePostgresUnavailable, startPostgresServer } from '../../../helpers/postgresServer';

const source: TerminalIdentity = {
  terminalId: 1,
  terminalNo: '1',
  sim: '1',
  orgId: 1,
  orgPath: '/1/',
  vehicleId: 1,
  licence: null,
  vehicleOrgPath: null,
};
const db = {} as Kysely<DB>; // the fake stores below never touch it

/** A store whose next inserts fail with the given errors, then succeed. */
function flakyStore(failures: Error[]): RecordStore<number> & { attempts: number } {
  return {
    attempts: 0,
    async insert(_db, records) {
      this.attempts++;
      const e = failures.shift();
      if (e) throw e;
      return new Set(records.map(String));
    },
    keyOf: String,
  };
}
const sqlError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isTransientDbError', () => {
  it.each([
    ['admin shutdown', sqlError('57P01', 'terminating connection due to administrator command')],
    ['starting up', sqlError('57P03', 'the database system is starting up')],
    ['connection exception class 08', sqlError('08006')],
    ['refused socket', sqlError('ECONNREFUSED')],
    [
      'refused on every address',
      Object.assign(new AggregateError([sqlError('ECONNREFUSED'), sqlError('ECONNREFUSED')]), { code: undefined }),
    ],
    ['connection cut', new Error('Connection terminated unexpectedly')],
    ['broken client', new Error('Client has encountered a connection error and is not queryable')],
  ])('takes %s for the database being away', (_what, e) => {
    expect(isTransientDbError(e)).toBe(true);
  });
  it.each([
    ['unique violation', sqlError('23505')],
    ['syntax error', sqlError('42601')],
    ['bad input', sqlError('22P02')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('takes %s for the statement at fault', (_what, e) => {
    expect(isTransientDbError(e)).toBe(false);
  });

  (privatePostgresUnavailable() ? it.skip : it)(
    'recognises what pg really throws when the server is stopped',
    async () => {
      const server = await startPostgresServer();
      try {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        const cut: unknown[] = [];
        client.on('error', (e) => cut.push(e));
        await server.stop();
        while (!cut.length) await new Promise((r) => setTimeout(r, 10));
        expect(cut.every(isTransientDbError)).toBe(true);
        const refused = await new pg.Client({ connectionString: server.url }).connect().then(
          () => null,
          (e: unknown) => e,
        );
        expect(isTransientDbError(refused)).toBe(true);
      } finally {
        await server.destroy();
      }
    },
    60_000,
  );
});

describe('BatchWriter while the database is away', () => {
  it('writes the batch again until it goes through, and acknowledges only then', async () => {
    const store = flakyStore([sqlError('57P01'), sqlError('ECONNREFUSED'), sqlError('57P03')]);
    const writer = new BatchWriter(db, store, { lingerMs: 1, retryMaxDelayMs: 20 });
    const errors: Error[] = [];
    writer.on('error', (e: Error) => errors.push(e));
    let recovered = 0;
    writer.on('recovered', (n: number) => (recovered = n));
    await writer.add(source, [1, 2, 3]);
    expect(store.attempts).toBe(4);
    expect(writer.stats).toMatchObject({ inserted: 3, failedBatches: 0, retries: 3 });
    expect(errors).toHaveLength(1); // one warning for the outage, not one per attempt
    expect(recovered).toBe(3);
  });

  it('fails a batch the database refuses for what it holds at once, without retrying', async () => {
    const store = flakyStore([sqlError('22P02')]);
    const writer = new BatchWriter(db, store, { lingerMs: 1 });
    writer.on('error', () => undefined);
    await expect(writer.add(source, [1])).rejects.toMatchObject({ code: '22P02' });
    expect(store.attempts).toBe(1);
    expect(writer.stats).toMatchObject({ failedBatches: 1, retries: 0 });
    await writer.add(source, [2]); // the next batch is unaffected
    expect(writer.stats.inserted).toBe(1);
  });

  it('stops waiting when shutting down: the batch fails unacknowledged and flush ends', async () => {
    const store = flakyStore(Array.from({ length: 1000 }, () => sqlError('ECONNREFUSED')));
    const writer = new BatchWriter(db, store, { lingerMs: 1, retryMaxDelayMs: 60_000 });
    writer.on('error', () => undefined);
    const added = writer.add(source, [1]);
    const outcome = added.then(
      () => 'acknowledged',
      () => 'failed',
    );
    while (writer.stats.retries < 1) await new Promise((r) => setTimeout(r, 5));
    writer.stopRetrying();
    await writer.flush();
    expect(await outcome).toBe('failed');
    expect(writer.stats.failedBatches).toBe(1);
  });
});

describe('BatchWriter callbacks', () => {
  it('answers each message once its batch commits, and each of a failed batch with the error', async () => {
    const writer = new BatchWriter(db, flakyStore([sqlError('22P02', 'bad input')]), { lingerMs: 50 });
    writer.on('error', () => undefined);
    const answered: Array<[number, string | null]> = [];
    for (const n of [1, 2]) writer.enqueue(source, [n], (e) => answered.push([n, e ? e.message : null]));
    await writer.flush();
    for (const n of [3, 4]) writer.enqueue(source, [n], (e) => answered.push([n, e ? e.message : null]));
    await writer.flush();
    expect(answered).toEqual([
      [1, 'bad input'],
      [2, 'bad input'],
      [3, null],
      [4, null],
    ]);
  });

  it('answers an empty message after the call returns, not inside it', async () => {
    const writer = new BatchWriter(db, flakyStore([]));
    const answered: Array<Error | null> = [];
    writer.enqueue(source, [], (e) => answered.push(e));
    expect(answered).toEqual([]);
    await Promise.resolve();
    expect(answered).toEqual([null]);
  });
});
