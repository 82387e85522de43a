/**
 * Scheduled reports by e-mail: the clock that sends each due schedule once across every server
 * process, and "send now". A send makes the report's xlsx with the export's own maker for the
 * schedule's organisation subtree (and vehicle), in its language, attaches it to a mail that names the
 * period, sends it through the notification mail server (SMTP_*), and keeps the outcome in
 * `report_send`.
 *
 * Once across processes: a tick claims a due schedule with one conditional UPDATE … RETURNING (the
 * row lock makes a racing tick re-read the claimed row and find nothing due). The claim moves
 * `due_at` to the firing and sets `retry_at` a lease ahead, so a process that dies mid-send leaves it
 * to be retried once the lease ends.
 *
 * Retries: a failed send (mail server down or refusing, the sheet failing) is tried again by the
 * ticks after 5, 10, then 20 minutes — four attempts in all, each in the history — and then left; the
 * schedule's next firing starts afresh. A firing missed while no process ran is sent once at the next
 * tick (only the latest one: a report mailed days late is not worth a flood of them).
 */

import { sql, type Kysely, type Selectable } from 'kysely';
import { translator } from '../../schemas/kit/catalogue';
import type { Language } from '../../schemas/kit/i18n';
import type { Caller } from '../platform/auth/caller';
import { XLSX_TYPE } from '../platform/crud/sheet/workbook';
import type { DB, ReportSendTable } from '../platform/db/tables';
import { dayStart, nextDay } from '../intelligence/localDay';
import { ProgressBoard } from '../platform/progress/board';
import { pathUnder } from '../platform/scope';
import type { SheetMaker } from '../reports';
import { sendMail, type SmtpConfig } from '../notify/smtp';
import { latestFiring, periodAt, type Frequency, type Period } from './period';

export const REPORTS = ['daily', 'safety', 'health', 'alarms', 'fuel', 'cost', 'maintenance', 'driver'] as const;
export type ReportKind = (typeof REPORTS)[number];

/** Attempts of one firing, the first retry's delay (doubled each time) and the lease of a send under way. */
export const MAX_ATTEMPTS = 4;
export const RETRY_MS = 5 * 60_000;
export const LEASE_MS = 10 * 60_000;
/** Rows of history a schedule shows. */
export const HISTORY_LIMIT = 50;

export interface ReportMailDeps {
  db: Kysely<DB>;
  /** FLEET_TIMEZONE: the local days and times schedules speak of. */
  timeZone: string;
  /** The mail server (SMTP_*); absent, every send fails with a clear error in the history. */
  smtp?: SmtpConfig | null;
  sheets: Readonly<Record<ReportKind, SheetMaker>>;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
}

/** A schedule as a send reads it. */
export interface ScheduleRow {
  id: number;
  orgId: number;
  orgName: string;
  orgPath: string;
  name: string;
  report: ReportKind;
  vehicleId: number | null;
  frequency: Frequency;
  recipients: string;
  language: Language;
}

export interface SendRecord {
  id: number;
  trigger: 'schedule' | 'manual';
  dueAt: Date | null;
  attempt: number;
  periodBegin: string;
  periodEnd: string;
  recipients: string;
  startedAt: Date;
  finishedAt: Date | null;
  status: 'sending' | 'sent' | 'failed';
  error: string | null;
  sizeBytes: number | null;
}

const SCHEDULE_COLUMNS = sql`s.id, s.org_id AS "orgId", o.name AS "orgName", o.path AS "orgPath", s.name, s.report, s.vehicle_id AS "vehicleId",
  s.frequency, s.recipients, coalesce(s.language, 'zh-CN') AS language`;

/** The addresses a schedule mails: its recipients as written (separated as a notification rule's receivers are), each once. */
export const addressesOf = (recipients: string): string[] => [...new Set(recipients.split(/[\s,;，；、]+/).filter(Boolean))];

/** The report route's body for a period: local days, or the instants they cover for the alarm list. */
function bodyOf(s: ScheduleRow, p: Period, timeZone: string): unknown {
  if (s.report !== 'alarms') return { criteria: { begin: p.begin, end: p.end, orgId: s.orgId, vehicleId: s.vehicleId } };
  const to = dayStart(nextDay(p.end), timeZone);
  return {
    criteria: {
      begin: new Date(dayStart(p.begin, timeZone)).toISOString(),
      end: new Date(to - 1).toISOString(),
      orgId: s.orgId,
      vehicleId: s.vehicleId,
    },
  };
}

/** The reports are read as the schedule's organisation: its subtree and nothing else, whoever wrote the schedule. */
const organisationCaller = (s: ScheduleRow): Caller => ({
  memberId: 0,
  uid: '',
  name: s.orgName,
  loginName: '',
  memberType: 'orgUser',
  orgId: s.orgId,
  orgName: s.orgName,
  orgType: '',
  orgPath: s.orgPath,
  sessionId: '',
  scope: 'full',
  originSessionId: null,
  application: 'obd-web',
  allCodes: false,
  orgIsSystem: false,
  codes: new Set(),
});

export interface ReportMailer {
  /** Sends the schedules due at `at` (default now), each claimed once across processes; answers the sends made. */
  tick(at?: number): Promise<SendRecord[]>;
  /** Sends a schedule's last complete period now (kept in its history as a manual send). */
  sendNow(schedule: ScheduleRow): Promise<SendRecord>;
  /** Ticks every minute until stopped. */
  start(): void;
  stop(): Promise<void>;
}

export function reportMailer(deps: ReportMailDeps): ReportMailer {
  const { db, timeZone } = deps;
  const now = deps.now ?? Date.now;
  const board = new ProgressBoard();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<SendRecord[]> | null = null;

  /** Makes, mails and records one send: a sheet or mail failure is recorded in the send, not thrown. */
  async function send(
    s: ScheduleRow,
    trigger: SendRecord['trigger'],
    at: number,
    dueAt: number | null,
    attempt: number,
  ): Promise<SendRecord> {
    const period = periodAt(s.frequency, dueAt ?? at, timeZone);
    const to = addressesOf(s.recipients);
    const { id } = await db
      .insertInto('report_send')
      .values({
        schedule_id: s.id,
        trigger,
        due_at: dueAt === null ? null : new Date(dueAt),
        attempt,
        period_begin: period.begin,
        period_end: period.end,
        recipients: to.join(', '),
        started_at: new Date(at),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const begun = Date.now();
    let outcome: Pick<ReportSendTable, 'error' | 'size_bytes'> & { status: 'sent' | 'failed' };
    try {
      if (!deps.smtp) throw new Error('no mail server is configured (SMTP_HOST)');
      const t = translator(s.language);
      const progress = board.begin(0, undefined, 'write');
      const sheet = await deps.sheets[s.report](
        { caller: organisationCaller(s), language: s.language, zone: timeZone, progress },
        bodyOf(s, period, timeZone),
      );
      const params = {
        name: s.name,
        report: t(`entity.reportSchedule.enums.report.${s.report}`),
        org: s.orgName,
        begin: period.begin,
        end: period.end,
      };
      await sendMail(deps.smtp, {
        to,
        subject: t(period.begin === period.end ? 'reportMail.subjectDay' : 'reportMail.subject', params),
        text: t(period.begin === period.end ? 'reportMail.bodyDay' : 'reportMail.body', params),
        attachments: [{ filename: `${sheet.title} ${period.begin}_${period.end}.xlsx`, contentType: XLSX_TYPE, content: sheet.buffer }],
      });
      outcome = { status: 'sent', error: null, size_bytes: sheet.buffer.length };
    } catch (err) {
      outcome = { status: 'failed', error: (err instanceof Error ? err.message : String(err)).slice(0, 500), size_bytes: null };
      deps.log?.warn({ err, schedule: s.id }, 'scheduled report not sent');
    }
    return recordOf(
      await db
        .updateTable('report_send')
        .set({ ...outcome, finished_at: new Date(at + (Date.now() - begun)) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }

  /** Claims a schedule's firing at `due` as of `at`: the row when this caller won it, else null. */
  async function claim(id: number, due: number, at: number): Promise<(ScheduleRow & { attempts: number }) | null> {
    const r = await sql<ScheduleRow & { attempts: number }>`
      WITH claimed AS (
        UPDATE report_schedule SET due_at = ${new Date(due)}, attempts = CASE WHEN due_at < ${new Date(due)} THEN 1 ELSE attempts + 1 END,
          retry_at = ${new Date(at + LEASE_MS)}
        WHERE id = ${id} AND enabled IS TRUE
          AND (due_at < ${new Date(due)} OR (due_at = ${new Date(due)} AND retry_at <= ${new Date(at)} AND attempts < ${MAX_ATTEMPTS}))
        RETURNING *)
      SELECT ${SCHEDULE_COLUMNS}, s.attempts FROM claimed s JOIN organisation o ON o.id = s.org_id`.execute(db);
    return r.rows[0] ?? null;
  }

  async function runTick(at: number): Promise<SendRecord[]> {
    const schedules = await sql<{
      id: number;
      frequency: Frequency;
      weekday: number | null;
      monthDay: number | null;
      sendTime: string;
      dueAt: Date;
      attempts: number;
      retryAt: Date | null;
    }>`SELECT id, frequency, weekday, month_day AS "monthDay", send_time AS "sendTime", due_at AS "dueAt", attempts, retry_at AS "retryAt"
        FROM report_schedule WHERE enabled IS TRUE`.execute(db);
    const sends: SendRecord[] = [];
    for (const s of schedules.rows) {
      const due = latestFiring(s, timeZone, at);
      if (due === null) continue;
      const fresh = due > s.dueAt.getTime();
      const retry = due === s.dueAt.getTime() && s.retryAt !== null && s.retryAt.getTime() <= at && s.attempts < MAX_ATTEMPTS;
      if (!fresh && !retry) continue;
      const won = await claim(s.id, due, at);
      if (!won) continue;
      const record = await send(won, 'schedule', at, due, won.attempts);
      // Sent, or given up after the last attempt: nothing more for this firing; else the next try after the backoff.
      const retryAt = record.status === 'sent' || won.attempts >= MAX_ATTEMPTS ? null : new Date(at + RETRY_MS * 2 ** (won.attempts - 1));
      await sql`UPDATE report_schedule SET retry_at = ${retryAt} WHERE id = ${won.id} AND due_at = ${new Date(due)}`.execute(db);
      sends.push(record);
    }
    return sends;
  }

  const mailer: ReportMailer = {
    tick(at?: number) {
      if (ticking) return ticking;
      ticking = runTick(at ?? now())
        .catch((err: unknown) => {
          deps.log?.warn({ err }, 'report mail clock failed');
          return [];
        })
        .finally(() => (ticking = null));
      return ticking;
    },
    sendNow: (schedule) => send(schedule, 'manual', now(), null, 1),
    start() {
      if (timer) return;
      timer = setInterval(() => void mailer.tick(), 60_000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await ticking;
    },
  };
  return mailer;
}

/** A schedule in the caller's organisation subtree, as a send reads it; null when there is none the caller may see. */
export async function scheduleInScope(db: Kysely<DB>, orgPath: string, id: number): Promise<ScheduleRow | null> {
  const r = await sql<ScheduleRow>`SELECT ${SCHEDULE_COLUMNS} FROM report_schedule s JOIN organisation o ON o.id = s.org_id
    WHERE s.id = ${id} AND ${pathUnder('o.path', orgPath)}`.execute(db);
  return r.rows[0] ?? null;
}

/** The latest sends of a schedule, newest first. */
export async function sendHistory(db: Kysely<DB>, scheduleId: number): Promise<SendRecord[]> {
  const rows = await db
    .selectFrom('report_send')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  return rows.map(recordOf);
}

type SendRow = Selectable<ReportSendTable>;

const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v));

function recordOf(r: SendRow): SendRecord {
  return {
    id: r.id,
    trigger: r.trigger,
    dueAt: r.due_at === null ? null : new Date(r.due_at),
    attempt: r.attempt,
    periodBegin: day(r.period_begin),
    periodEnd: day(r.period_end),
    recipients: r.recipients,
    startedAt: r.started_at,
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
    status: r.status,
    error: r.error,
    sizeBytes: r.size_bytes,
  };
}
