import type { Page } from './passport';
import type { AlarmCategory } from '../../schemas/kit/alarmModel';
import { NONE } from '../../schemas/kit/authority';
import { call } from './http/call';
import { mediaFile } from './media';
import { downloadSheet, type DownloadWatch } from './sheet';

/** The console's alarm calls (server/alarmCentre): the list, handling with a note. */

export type { AlarmCategory } from '../../schemas/kit/alarmModel';

export interface AlarmRow {
  id: number;
  vehicleId: number;
  licence: string;
  type: string;
  category: AlarmCategory;
  level: string;
  begin: string;
  end: string | null;
  status: 'open' | 'closed';
  /** What later data made of it: withdrawn (no longer found) or superseded (by `supersededBy`); only current ones are open. */
  state: AlarmState;
  supersededBy: number | null;
  handled: boolean;
  latitude: number | null;
  longitude: number | null;
  value: number | null;
  detail: Record<string, unknown> | null;
  handledBy: string | null;
  handledAt: string | null;
  note: string | null;
  fenceId?: number | null;
  fenceName?: string | null;
}

export type AlarmState = 'current' | 'withdrawn' | 'superseded';

export interface AlarmCriteria {
  /** One alarm (the link from a superseded one to its successor). */
  id?: number | null;
  type?: string | null;
  category?: AlarmCategory | null;
  vehicleId?: number | null;
  status?: 'open' | 'closed' | null;
  handled?: boolean | null;
  current?: boolean | null;
  state?: AlarmState | null;
  begin?: string | null;
  end?: string | null;
  orgId?: number | null;
  fenceId?: number | null;
}

export interface AlarmQuery {
  criteria: AlarmCriteria;
  order?: { property: string; direction: 'ASC' | 'DESC' };
  pageIndex: number;
  pageSize: number;
}

export const queryAlarms = (q: AlarmQuery) => call<Page<AlarmRow>>('/vehicle/alarm/query', { method: 'POST', data: q, quiet: true });
export const handleAlarm = (id: number, note: string) => call<AlarmRow>(`/vehicle/alarm/${id}/handle`, { method: 'PUT', data: { note } });

/** The list of these criteria as xlsx, latest first (what the table pages through). */
export const exportAlarms = (criteria: AlarmCriteria, watch?: DownloadWatch) =>
  downloadSheet(
    { method: 'POST', url: '/vehicle/alarm/export', authority: NONE },
    { criteria, order: { property: 'begin', direction: 'DESC' } },
    watch,
  );

/**
 * One file of an alarm's evidence: an active safety attachment the terminal uploaded for it
 * (server/telematics/attachments), or a photo or clip it took for the alarm (0x0801, server/telematics/media).
 */
export interface AlarmEvidence {
  id: number;
  source: 'attachment' | 'media';
  name: string;
  kind: 'picture' | 'audio' | 'video' | 'text' | 'other';
  contentType: string;
  bytes: number;
  /** When the terminal took it (media with a position), else null. */
  takenAt: string | null;
  receivedAt: string;
  url: string;
}

export const alarmEvidence = (id: number) =>
  call<{ data: AlarmEvidence[] }>(`/vehicle/alarm/${id}/evidence`, { method: 'GET', quiet: true });
/** One evidence file's bytes (the console shows it from a blob: the request carries the session). */
export const evidenceFile = (f: Pick<AlarmEvidence, 'id' | 'source'>) =>
  f.source === 'media'
    ? mediaFile(f.id)
    : call<Blob>(`/vehicle/attachment/${f.id}/content`, { method: 'GET', responseType: 'blob', quiet: true });
