/**
 * What a JT/T 809 link could not send yet, oldest first, bounded (past its limit the oldest is
 * dropped and counted). A link reads the oldest items (`peek`), writes them, then removes them
 * (`ack`), so what it had not written when the process stopped is still there. Two kinds: in
 * memory (a link alone, the tests of its timing) and in the database (`forward_backlog`, the
 * server's links: the backlog survives a restart and is sent in order once the link is up again).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { ForwardKind } from './jt809Link';

/** A message as the link queues it: its id, body and what it counts as. */
export interface Outgoing {
  msgId: number;
  body: Buffer;
  kind: ForwardKind;
}

export interface Queued {
  seq: number;
  item: Outgoing;
}

export interface LinkBacklog {
  /** Items waiting (stored or being stored). */
  readonly length: number;
  /** Items dropped from a full backlog, ever (the stored kind keeps the count across restarts). */
  readonly dropped: number;
  /** Pushed items are still being stored: a `peek` answering nothing does not mean empty yet. */
  readonly busy: boolean;
  push(item: Outgoing): void;
  /** The oldest `n` items, left in place. */
  peek(n: number): Promise<Queued[]>;
  /** Removes every item up to `seq` (written). */
  ack(seq: number): Promise<void>;
  /** Resolves once everything pushed is stored. */
  close(): Promise<void>;
}

export class MemoryBacklog implements LinkBacklog {
  private items: Queued[] = [];
  private seq = 0;
  dropped = 0;
  readonly busy = false;

  constructor(private readonly limit: number) {}

  get length(): number {
    return this.items.length;
  }

  push(item: Outgoing): void {
    this.items.push({ seq: ++this.seq, item });
    if (this.items.length > this.limit) {
      this.items.shift();
      this.dropped++;
    }
  }

  async peek(n: number): Promise<Queued[]> {
    return this.items.slice(0, n);
  }

  async ack(seq: number): Promise<void> {
    const i = this.items.findIndex((q) => q.seq > seq);
    this.items = i < 0 ? [] : this.items.slice(i);
  }

  async close(): Promise<void> {}
}

/**
 * A link's backlog in `forward_backlog`. Pushes are stored in batches (whatever was pushed while
 * the previous batch was written), one database statement at a time in push order, so the rows'
 * ids are the queue's order; only the process running the link writes its rows.
 */
export class StoredBacklog implements LinkBacklog {
  private pending: Outgoing[] = [];
  private stored = 0;
  private storing = false;
  private chain: Promise<unknown> = Promise.resolve();
  dropped = 0;

  private constructor(
    private readonly db: Kysely<DB>,
    private readonly linkId: number,
    private readonly limit: number,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  /** The link's backlog as a previous process left it. */
  static async open(db: Kysely<DB>, linkId: number, limit: number, log?: StoredBacklog['log']): Promise<StoredBacklog> {
    const b = new StoredBacklog(db, linkId, limit, log);
    const r = await sql<{ n: number; dropped: string }>`
      SELECT (SELECT count(*)::int FROM forward_backlog WHERE link_id = ${linkId}) AS n, backlog_dropped AS dropped
      FROM forward_link WHERE id = ${linkId}`.execute(db);
    b.stored = r.rows[0]?.n ?? 0;
    b.dropped = Number(r.rows[0]?.dropped ?? 0);
    // A limit lowered since: the oldest beyond it go now.
    if (b.stored > limit) await b.run(() => b.trim());
    return b;
  }

  get length(): number {
    return Math.min(this.limit, this.stored + this.pending.length);
  }

  get busy(): boolean {
    return this.storing || this.pending.length > 0;
  }

  push(item: Outgoing): void {
    this.pending.push(item);
    // A store already queued takes this item too.
    if (this.pending.length === 1) void this.run(() => this.store());
  }

  peek(n: number): Promise<Queued[]> {
    return this.run(async () => {
      const r = await sql<{ id: string; msg_id: number; kind: ForwardKind; body: string }>`
        SELECT id, msg_id, kind, encode(body, 'hex') AS body FROM forward_backlog
        WHERE link_id = ${this.linkId} ORDER BY id LIMIT ${n}`.execute(this.db);
      return r.rows.map((x) => ({ seq: Number(x.id), item: { msgId: x.msg_id, kind: x.kind, body: Buffer.from(x.body, 'hex') } }));
    });
  }

  ack(seq: number): Promise<void> {
    return this.run(async () => {
      const r = await sql`DELETE FROM forward_backlog WHERE link_id = ${this.linkId} AND id <= ${seq} RETURNING id`.execute(this.db);
      this.stored = Math.max(0, this.stored - r.rows.length);
    });
  }

  close(): Promise<void> {
    return this.run(async () => undefined);
  }

  /** One statement at a time, in call order; a failure is logged and leaves the chain going. */
  private run<T>(f: () => Promise<T>): Promise<T> {
    const next = this.chain.then(f);
    this.chain = next.catch((e: Error) => this.log?.warn({ err: e.message, link: this.linkId }, 'forwarding backlog'));
    return next;
  }

  private async store(): Promise<void> {
    const batch = this.pending.splice(0);
    if (!batch.length) return;
    this.storing = true;
    try {
      await sql`
        INSERT INTO forward_backlog (link_id, msg_id, kind, body)
        SELECT ${this.linkId}, m, k, decode(b, 'hex')
        FROM unnest(${batch.map((o) => o.msgId)}::int[], ${batch.map((o) => o.kind)}::text[], ${batch.map((o) => o.body.toString('hex'))}::text[])
          WITH ORDINALITY AS u(m, k, b, n)
        ORDER BY n`.execute(this.db);
      this.stored += batch.length;
      if (this.stored > this.limit) await this.trim();
    } catch (e) {
      // Kept for the next store, within the limit (the database may be back by then).
      this.pending.unshift(...batch);
      const over = this.pending.length - this.limit;
      if (over > 0) {
        this.pending.splice(0, over);
        this.dropped += over;
      }
      throw e;
    } finally {
      this.storing = false;
    }
  }

  /** Drops the oldest rows beyond the limit, counting them on the link. */
  private async trim(): Promise<void> {
    const r = await sql`
      DELETE FROM forward_backlog WHERE id IN (
        SELECT id FROM forward_backlog WHERE link_id = ${this.linkId} ORDER BY id LIMIT ${this.stored - this.limit})
      RETURNING id`.execute(this.db);
    const n = r.rows.length;
    this.stored -= n;
    this.dropped += n;
    await sql`UPDATE forward_link SET backlog_dropped = backlog_dropped + ${n} WHERE id = ${this.linkId}`.execute(this.db);
  }
}
