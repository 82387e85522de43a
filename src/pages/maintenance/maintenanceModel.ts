import type { DueState, ScheduleUsage } from '../../services/maintenance';

/** Each due state's tag colour. */
export const STATE_COLOURS: Record<DueState, string> = { overdue: 'error', due: 'warning', ok: 'success' };

/** The maintenance status page's key (server/seed/menu.ts). */
export const STATUS_PAGE_KEY = 'maintenance/status';

/** A row's key: a schedule applies to a vehicle once. */
export const usageKey = (r: Pick<ScheduleUsage, 'scheduleId' | 'vehicleId'>): string => `${r.scheduleId}-${r.vehicleId}`;
