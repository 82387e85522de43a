import type { BreakRuleRow, ScheduleRow } from '../../schemas/kit/reportColumns';
import { call } from './http/call';
import type { LedgerCriteria } from './reports';

/** Team monitoring calls (server/reports/teamRoutes.ts). */

export type TeamCriteria = LedgerCriteria & { driverId?: number | null };

export interface TeamAnswer<T> {
  rows: T[];
  /** More rows matched than one answer carries. */
  truncated: boolean;
}

export type { BreakRuleRow, ScheduleRow };

const post = <T>(path: string, criteria: TeamCriteria) =>
  call<TeamAnswer<T>>(`/vehicle/team/${path}`, { method: 'POST', data: { criteria }, quiet: true });

export const breakRules = (c: TeamCriteria) => post<BreakRuleRow>('breakRules', c);
export const orderSchedule = (c: TeamCriteria) => post<ScheduleRow>('orderSchedule', c);

/** Where each report downloads as xlsx (body: `{criteria}`). */
export const BREAK_RULES_EXPORT = '/vehicle/team/breakRules/export';
export const ORDER_SCHEDULE_EXPORT = '/vehicle/team/orderSchedule/export';
