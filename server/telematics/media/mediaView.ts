/**
 * A stored media row as the API shows it: in a vehicle's media list and in a `media` event of an
 * event subscription. Its content is fetched at `url`, scoped like every media route.
 */

import { MEDIA_EVENTS, MEDIA_FORMATS, MEDIA_TYPES } from '../jt808/codec';

/** Content types by the 0x0801 format code (jpeg, tif, mp3, wav, wmv). */
const CONTENT_TYPES = ['image/jpeg', 'image/tiff', 'audio/mpeg', 'audio/wav', 'video/x-ms-wmv'] as const;
/** Evidence kinds (as the attachment service names them) by the 0x0801 type code (image, audio, video). */
const KINDS = ['picture', 'audio', 'video'] as const;

export const mediaContentType = (format: number): string => CONTENT_TYPES[format] ?? 'application/octet-stream';

/** The file name a media downloads as: its row id and its format's suffix. */
export function mediaFileName(id: string | number, format: number): string {
  const ext = MEDIA_FORMATS[format] ?? 'bin';
  return `media-${id}.${ext === 'jpeg' ? 'jpg' : ext}`;
}

export interface MediaRow {
  id: string | number;
  mediaId: string | number;
  type: number;
  format: number;
  event: number;
  channel: number;
  latitude: number | null;
  longitude: number | null;
  takenAt: Date | string | null;
  receivedAt: Date | string;
  bytes: number;
}

/** The columns of `media m` that make a MediaRow. */
export const MEDIA_COLUMNS = `m.id, m.media_id AS "mediaId", m.type, m.format, m.event, m.channel, m.latitude, m.longitude,
  m.taken_at AS "takenAt", m.received_at AS "receivedAt", m.bytes`;

export const mediaView = (r: MediaRow) => ({
  id: Number(r.id),
  mediaId: Number(r.mediaId),
  type: MEDIA_TYPES[r.type] ?? r.type,
  format: MEDIA_FORMATS[r.format] ?? r.format,
  event: r.event,
  eventName: MEDIA_EVENTS[r.event] ?? null,
  channel: r.channel,
  latitude: r.latitude,
  longitude: r.longitude,
  takenAt: r.takenAt ? new Date(r.takenAt).toISOString() : null,
  receivedAt: new Date(r.receivedAt).toISOString(),
  bytes: r.bytes,
  url: `/api/vehicle/media/${r.id}/content`,
});

/** A media row as one file of an alarm's evidence, beside the active safety attachments. */
export const mediaEvidence = (r: MediaRow) => ({
  id: Number(r.id),
  source: 'media' as const,
  name: mediaFileName(r.id, r.format),
  kind: KINDS[r.type] ?? 'other',
  contentType: mediaContentType(r.format),
  bytes: r.bytes,
  takenAt: r.takenAt ? new Date(r.takenAt).toISOString() : null,
  receivedAt: new Date(r.receivedAt).toISOString(),
  url: `/api/vehicle/media/${r.id}/content`,
});
