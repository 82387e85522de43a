/**
 * What "current" means for alarms, shared by the server (server/alarmCentre/current.ts, the
 * one SQL definition) and the console (the words that explain it): open, or ended less than this
 * many hours ago and not handled yet.
 */
export const UNHANDLED_CURRENT_HOURS = 24;
