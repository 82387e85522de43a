/**
 * Delivery of each new alarm by the enabled notification rules (`notify`) of its vehicle's
 * organisation and its ancestors, for the alarm's type, outside the rule's quiet hours:
 * - platform / app: an unread entry for each receiver (the members whose scope holds the vehicle,
 *   narrowed to the rule's receivers, login names, when it names any), and a push over the live
 *   WebSocket to their sessions;
 * - webhook / sms: a signed POST to the rule's URL (sms: an SMS gateway, with the receivers' numbers
 *   in the body);
 * - email: a plain-text mail over SMTP (SMTP_* settings) to the receivers' addresses.
 * Webhook, SMS and email deliveries are retried with exponential backoff, every attempt kept in
 * `notify_delivery`; those still pending when a process stopped are resumed by the next one.
 * The engine announces alarms once committed; each is still read back (retrying briefly, for an
 * announcement that reached this process ahead of the row), and one that a later pass no longer
 * found is never delivered.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import { pathInSubtree } from '../platform/scope';
import type { LiveRaisedAlarm } from '../telematics/live/hub';
import { alarmMail } from './alarmMail';
import { inQuietHours } from './quietHours';
import { isPhoneNumber, receiverNames } from './receivers';
import { isMailbox, sendMail, SmtpError, type SmtpConfig } from './smtp';
import { NO_ALLOW, type TargetAllow } from './target';
import { postSigned, webhookAgents, type PostResult } from './webhook';

export interface RaisedAlarmSink {
  publishRaised(items: ReadonlyArray<{ orgPath: string; alarm: LiveRaisedAlarm; memberIds: ReadonlySet<number> }>): void;
}

export interface NotifyOptions {
  db: Kysely<DB>;
  /** The live hub; absent when telematics is off (unread entries and webhooks still happen). */
  sink?: RaisedAlarmSink | null;
  timeZone: string;
  now?: () => number;
  /** Attempts per webhook delivery, and the first retry's delay (doubled each time). */
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
  /** The mail server for email rules; absent, their deliveries fail with a clear error. */
  smtp?: SmtpConfig | null;
  /** Non-public webhook targets the operator allows (WEBHOOK_ALLOW); default none. */
  allow?: TargetAllow;
  log?: { warn(obj: object, msg: string): void };
  /** Told each attempt's outcome (the /metrics counter); absent, nobody is. */
  onAttempt?: (outcome: 'delivered' | 'retry' | 'failed') => void;
}

export interface NotifyDispatcher {
  /** New alarms (by id) to deliver; calls in one tick are delivered together. */
  onRaised(alarms: ReadonlyArray<{ id: number }>): void;
  /** Picks up the deliveries a previous process left pending; answers how many. */
  resume(): Promise<number>;
  /** Resolves when every delivery under way (retries included) has ended. */
  idle(): Promise<void>;
  /** Stops retrying; deliveries still pending stay 'pending' in the log. */
  stop(): Promise<void>;
}

interface Rule {
  id: number;
  channel: string;
  receivers: string | null;
  quietStart: string | null;
  quietEnd: string | null;
  url: string | null;
  secret: string | null;
  alarmType: string;
  orgPath: string;
}

type AlarmRow = LiveRaisedAlarm & { orgPath: string };

const READBACK_MS = 20;
/** Channels whose deliveries are attempted, retried and logged. */
const DELIVERED = new Set(['webhook', 'sms', 'email']);
const READBACK_ATTEMPTS = 100;

export function notifyDispatcher(opts: NotifyOptions): NotifyDispatcher {
  const { db, timeZone } = opts;
  const now = opts.now ?? Date.now;
  const attempts = opts.attempts ?? 5;
  const backoffMs = opts.backoffMs ?? 1000;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const agents = webhookAgents(opts.allow ?? NO_ALLOW);
  const inFlight = new Set<Promise<unknown>>();
  /** Waiting timers, each with the release of the promise that keeps idle() waiting for it. */
  const timers = new Map<NodeJS.Timeout, () => void>();
  let stopped = false;

  const track = (p: Promise<unknown>): void => {
    const q = p.catch((err: unknown) => opts.log?.warn({ err }, 'alarm notification failed')).finally(() => inFlight.delete(q));
    inFlight.add(q);
  };
  const later = (ms: number, fn: () => Promise<unknown>): void => {
    if (stopped) return;
    let release!: () => void;
    track(new Promise<void>((r) => (release = r)));
    const t = setTimeout(() => {
      timers.delete(t);
      track(fn());
      release();
    }, ms);
    timers.set(t, release);
  };

  const readAlarms = async (ids: number[]): Promise<AlarmRow[]> => {
    const r = await sql<AlarmRow & { begin: Date; end: Date | null }>`
      SELECT a.id, a.vehicle_id AS "vehicleId", v.licence, a.type, a.category, a.level, a.begin_time AS begin, a.end_time AS "end",
             a.latitude, a.longitude, a.value, a.fence_id AS "fenceId", a.detail, o.path AS "orgPath"
      FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id JOIN organisation o ON o.id = v.org_id
      WHERE a.id = ANY (${ids}::int[]) ORDER BY a.begin_time, a.id`.execute(db);
    return r.rows.map((a) => ({
      ...a,
      begin: new Date(a.begin).toISOString(),
      end: a.end === null ? null : new Date(a.end).toISOString(),
      detail: typeof a.detail === 'string' ? (JSON.parse(a.detail) as Record<string, unknown>) : a.detail,
    }));
  };

  const rulesWhere = async (where: RawBuilder<unknown>): Promise<Rule[]> =>
    (
      await sql<Rule>`
        SELECT n.id, n.channel, n.receivers, n.quiet_start AS "quietStart", n.quiet_end AS "quietEnd", n.url, n.secret,
               n.alarm_type AS "alarmType", o.path AS "orgPath"
        FROM notify n JOIN organisation o ON o.id = n.org_id
        WHERE ${where} ORDER BY n.id`.execute(db)
    ).rows;
  const rulesFor = (types: string[]): Promise<Rule[]> => rulesWhere(sql`n.enabled IS NOT FALSE AND n.alarm_type = ANY (${types}::text[])`);

  type Member = { id: number; loginName: string; mobile: string | null; orgPath: string };
  /**
   * Whether the rule names this member among its receivers: by login name, and only a member of the
   * rule's own subtree, so a rule cannot reach (nor send the number of) anyone above it.
   */
  const named = (rule: Rule, names: readonly string[], m: Member): boolean =>
    names.includes(m.loginName.toLowerCase()) && pathInSubtree(rule.orgPath, m.orgPath);

  /** Per organisation path, the enabled members whose scope holds it (their organisation is that one or above it). */
  const membersOverMany = async (orgPaths: readonly string[]): Promise<Map<string, Member[]>> => {
    const out = new Map(orgPaths.map((p) => [p, [] as Member[]]));
    const r = await sql<Member & { path: string }>`
      SELECT w.path, m.id, m.login_name AS "loginName", m.mobile, o.path AS "orgPath" FROM unnest(${[...orgPaths]}::text[]) AS w(path)
      JOIN organisation o ON w.path LIKE o.path || '%' JOIN member m ON m.org_id = o.id
      WHERE m.status = 'enabled' ORDER BY m.id`.execute(db);
    for (const { path, ...member } of r.rows) out.get(path)!.push(member);
    return out;
  };
  const membersOver = async (orgPath: string): Promise<Member[]> => (await membersOverMany([orgPath])).get(orgPath)!;

  /**
   * The console's share of a delivery: each (rule, alarm) pair's members, their unread entries in
   * one statement for all the pairs (one query per alarm, in turn, made a batch of alarms wait for
   * the slowest), and who is to be pushed each alarm.
   */
  const toConsole = async (
    pairs: ReadonlyArray<{ rule: Rule; alarm: AlarmRow }>,
  ): Promise<Map<number, { alarm: AlarmRow; members: Set<number> }>> => {
    const pushed = new Map<number, { alarm: AlarmRow; members: Set<number> }>();
    if (!pairs.length) return pushed;
    const membersOf = await membersOverMany([...new Set(pairs.map((p) => p.alarm.orgPath))]);
    const unread: Array<{ memberId: number; alarmId: number; notifyId: number }> = [];
    for (const { rule, alarm } of pairs) {
      const names = receiverNames(rule.receivers);
      const members = membersOf.get(alarm.orgPath)!.filter((m) => !names.length || named(rule, names, m));
      if (!members.length) continue;
      const entry = pushed.get(alarm.id) ?? { alarm, members: new Set<number>() };
      for (const m of members) {
        // The first rule that names a member for an alarm is the one its unread entry keeps.
        if (!entry.members.has(m.id)) unread.push({ memberId: m.id, alarmId: alarm.id, notifyId: rule.id });
        entry.members.add(m.id);
      }
      pushed.set(alarm.id, entry);
    }
    if (unread.length)
      await sql`INSERT INTO notify_unread (member_id, alarm_id, notify_id)
                SELECT * FROM unnest(${unread.map((u) => u.memberId)}::int[], ${unread.map((u) => u.alarmId)}::int[], ${unread.map((u) => u.notifyId)}::int[])
                ON CONFLICT (member_id, alarm_id) DO NOTHING`.execute(db);
    return pushed;
  };

  /** One attempt's outcome, whatever the channel (an SMTP reply code stands in the HTTP status column). */
  const attempt = async (deliveryId: number, send: () => Promise<PostResult>, n: number): Promise<void> => {
    const r = await send();
    // The log keeps the generic reason; what exactly failed (which address, which socket error) only the server log.
    if (r.detail) opts.log?.warn({ deliveryId, attempt: n, detail: r.detail }, 'alarm notification attempt failed');
    const final = r.ok || r.final === true || n >= attempts;
    const status = r.ok ? 'delivered' : final ? 'failed' : 'pending';
    opts.onAttempt?.(status === 'pending' ? 'retry' : status);
    await sql`UPDATE notify_delivery SET status = ${status}, attempts = ${n}, http_status = ${r.status}, error = ${r.error}, updated_at = now()
              WHERE id = ${deliveryId}`.execute(db);
    if (!final) later(backoffMs * 2 ** (n - 1), () => attempt(deliveryId, send, n + 1));
  };

  const mail = async (to: string[], alarm: AlarmRow): Promise<PostResult> => {
    if (!opts.smtp) return { ok: false, status: null, error: 'no mail server is configured (SMTP_HOST)' };
    if (!to.length) return { ok: false, status: null, error: 'the rule names no e-mail address among its receivers' };
    const { orgPath: _orgPath, ...payload } = alarm;
    try {
      await sendMail({ timeoutMs, ...opts.smtp }, alarmMail(payload, to));
      return { ok: true, status: 250, error: null };
    } catch (e) {
      return {
        ok: false,
        status: e instanceof SmtpError ? e.code : null,
        error: (e instanceof Error ? e.message : String(e)).slice(0, 300),
      };
    }
  };

  /** What one delivery of the rule's channel sends, ready to be attempted again and again. */
  const sender = async (rule: Rule, alarm: AlarmRow): Promise<(() => Promise<PostResult>) | null> => {
    const names = receiverNames(rule.receivers);
    // Accounts carry no e-mail address: an email rule's receivers are the addresses themselves.
    if (rule.channel === 'email') {
      const to = [...new Set(names.filter(isMailbox))];
      return () => mail(to, alarm);
    }
    if (!rule.url) return null;
    const url = rule.url;
    const { orgPath: _orgPath, ...payload } = alarm;
    const body = JSON.stringify({
      event: 'alarm',
      notifyId: rule.id,
      channel: rule.channel,
      alarm: payload,
      // An SMS gateway needs numbers: the receivers' mobiles (or the receivers as written when they are numbers).
      ...(rule.channel === 'sms'
        ? {
            to: (await membersOver(alarm.orgPath))
              .filter((m) => named(rule, names, m) && m.mobile)
              .map((m) => m.mobile)
              .concat(names.filter(isPhoneNumber)),
          }
        : {}),
    });
    return () => postSigned(agents, url, body, rule.secret, now(), timeoutMs);
  };

  const toChannel = async (rule: Rule, alarm: AlarmRow): Promise<void> => {
    const send = await sender(rule, alarm);
    if (!send) return;
    const inserted = await sql<{ id: number }>`
      INSERT INTO notify_delivery (notify_id, alarm_id, channel, url, status) VALUES (${rule.id}, ${alarm.id}, ${rule.channel}, ${rule.url}, 'pending')
      ON CONFLICT (notify_id, alarm_id) DO NOTHING RETURNING id`.execute(db);
    if (!inserted.rows.length) return; // delivered (or under way) already
    await attempt(inserted.rows[0].id, send, 1);
  };

  const deliver = async (ids: number[], readback: number): Promise<void> => {
    const alarms = await readAlarms(ids);
    const found = new Set(alarms.map((a) => a.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length && readback < READBACK_ATTEMPTS) later(READBACK_MS, () => deliver(missing, readback + 1));
    if (!alarms.length) return;
    const rules = await rulesFor([...new Set(alarms.map((a) => a.type))]);
    const at = now();
    const consolePairs: Array<{ rule: Rule; alarm: AlarmRow }> = [];
    for (const alarm of alarms) {
      for (const rule of rules) {
        if (rule.alarmType !== alarm.type || !pathInSubtree(rule.orgPath, alarm.orgPath)) continue;
        if (inQuietHours(rule.quietStart, rule.quietEnd, at, timeZone)) continue;
        if (rule.channel === 'platform' || rule.channel === 'app') consolePairs.push({ rule, alarm });
        else if (DELIVERED.has(rule.channel)) track(toChannel(rule, alarm));
      }
    }
    const pushed = await toConsole(consolePairs);
    if (pushed.size && opts.sink) {
      opts.sink.publishRaised(
        [...pushed.values()].map(({ alarm: { orgPath, ...alarm }, members }) => ({ orgPath, alarm, memberIds: members })),
      );
    }
  };

  /** Ids announced in this tick, delivered together on the next. */
  let batch: number[] | null = null;

  const resume = async (): Promise<number> => {
    const pending = (
      await sql<{ id: number; attempts: number; notifyId: number; alarmId: number }>`
        SELECT d.id, d.attempts, d.notify_id AS "notifyId", d.alarm_id AS "alarmId" FROM notify_delivery d
        WHERE d.status = 'pending' ORDER BY d.id`.execute(db)
    ).rows;
    if (!pending.length) return 0;
    const alarms = new Map((await readAlarms([...new Set(pending.map((p) => p.alarmId))])).map((a) => [a.id, a]));
    const rules = new Map(
      (await rulesWhere(sql`n.id = ANY (${[...new Set(pending.map((p) => p.notifyId))]}::int[])`)).map((r) => [r.id, r]),
    );
    for (const p of pending) {
      const rule = rules.get(p.notifyId);
      const alarm = alarms.get(p.alarmId);
      const send = rule && alarm ? await sender(rule, alarm) : null;
      if (!send) {
        await sql`UPDATE notify_delivery SET status = 'failed', error = 'the rule was removed or lost its address', updated_at = now() WHERE id = ${p.id}`.execute(
          db,
        );
        continue;
      }
      track(attempt(p.id, send, p.attempts + 1));
    }
    return pending.length;
  };

  return {
    onRaised(alarms) {
      if (!alarms.length || stopped) return;
      if (batch) {
        batch.push(...alarms.map((a) => a.id));
        return;
      }
      const ids = (batch = alarms.map((a) => a.id));
      later(0, () => {
        batch = null;
        return deliver(ids, 0);
      });
    },
    resume,
    async idle() {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    async stop() {
      stopped = true;
      for (const [t, release] of timers) {
        clearTimeout(t);
        release();
      }
      timers.clear();
      await Promise.all([...inFlight]);
      agents.destroy();
    },
  };
}
