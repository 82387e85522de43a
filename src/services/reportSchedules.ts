import { call } from './http/call';

/** Scheduled reports' calls beside their generic CRUD (server/reportMail/routes.ts), with their code. */

export const REPORT_SEND_CODE = 'reportSchedule-send';

/** One send of a schedule, scheduled or "send now". */
export interface ReportSend {
  id: number;
  trigger: 'schedule' | 'manual';
  dueAt: string | null;
  attempt: number;
  periodBegin: string;
  periodEnd: string;
  recipients: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'sending' | 'sent' | 'failed';
  error: string | null;
  sizeBytes: number | null;
}

/** The latest sends of a schedule, newest first. */
export const reportSends = (id: number) => call<ReportSend[]>(`/vehicle/reportSchedule/${id}/sends`, { method: 'GET' });

/** Sends a schedule's last complete period now; answers the send (sent or failed, as its history keeps it). */
export const sendReportNow = (id: number) =>
  call<ReportSend>(`/vehicle/reportSchedule/${id}/send`, { method: 'POST', authority: REPORT_SEND_CODE });
