import type { Range } from './vehicleDetail';
import type { MediaType, VehicleMedia } from '../../schemas/kit/media';
import { call } from './http/call';

export { MEDIA_EVENTS, MEDIA_TYPES, type MediaType, type VehicleMedia } from '../../schemas/kit/media';

/** Media a terminal uploaded (server/telematics/media): a vehicle's list, filtered and paged. */

export interface MediaFilter {
  event?: number;
  channel?: number;
  type?: MediaType;
}

/** A vehicle's media taken within the range, newest first. */
export const vehicleMedia = (vehicleId: number, range: Range, filter: MediaFilter, pageIndex: number, pageSize: number) =>
  call<{ data: VehicleMedia[]; total: number }>(`/vehicle/vehicle/${vehicleId}/media`, {
    method: 'GET',
    params: { ...filter, begin: range.begin, end: range.end, pageIndex, pageSize },
    quiet: true,
  });

/** One media file's bytes (shown from a blob: the request carries the session). */
export const mediaFile = (id: number) => call<Blob>(`/vehicle/media/${id}/content`, { method: 'GET', responseType: 'blob', quiet: true });

/** When a media was taken: the position it carries, else when it arrived. */
export const mediaTime = (m: Pick<VehicleMedia, 'takenAt' | 'receivedAt'>): string => m.takenAt ?? m.receivedAt;

/** The name a media downloads as (as the server names it). */
export function mediaFileName(m: Pick<VehicleMedia, 'id' | 'format'>): string {
  const ext = typeof m.format === 'string' ? (m.format === 'jpeg' ? 'jpg' : m.format) : 'bin';
  return `media-${m.id}.${ext}`;
}
