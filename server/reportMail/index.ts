/** Scheduled reports by e-mail: the clock and its sends (mailer.ts), their routes, the schedule's write rules. */

export { reportMailer, REPORTS, type ReportKind, type ReportMailer, type ReportMailDeps, type SendRecord } from './mailer';
export { registerReportMailRoutes, REPORT_SEND_PERMISSION } from './routes';
export { checkReportScheduleBody } from './writeRules';
