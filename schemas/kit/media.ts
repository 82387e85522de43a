import type { FromSchema } from 'json-schema-to-ts';

/**
 * Codes of JT/T 808 multimedia (0x0800/0x0801) that the server decodes by and the console filters
 * by: one list, read by both; and a media as the API answers it (the server's route schema, the
 * console's type).
 */

export const MEDIA_TYPES = ['image', 'audio', 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** Event codes 0–7 of 0x0800/0x0801 (4–7 added in 2013). */
export const MEDIA_EVENTS = [
  'platformCommand',
  'timed',
  'robberyAlarm',
  'collisionAlarm',
  'doorOpened',
  'doorClosed',
  'doorClosedAtSpeed',
  'distance',
] as const;
export type MediaEvent = (typeof MEDIA_EVENTS)[number];

const int = { type: 'integer' } as const;
const maybeNumber = { type: ['number', 'null'] } as const;

/** A stored media as a vehicle's media list answers it (server/telematics/media/mediaView.ts). */
export const vehicleMediaSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'mediaId',
    'type',
    'format',
    'event',
    'eventName',
    'channel',
    'latitude',
    'longitude',
    'takenAt',
    'receivedAt',
    'bytes',
    'url',
  ],
  properties: {
    id: int,
    mediaId: int,
    type: { description: 'a name of MEDIA_TYPES, or the code when the terminal sent another', anyOf: [{ enum: MEDIA_TYPES }, int] },
    format: { type: ['string', 'integer'], description: 'the format by name (jpeg, tif, mp3, wav, wmv), or its code when unknown' },
    event: int,
    eventName: { enum: [...MEDIA_EVENTS, null] },
    channel: int,
    latitude: maybeNumber,
    longitude: maybeNumber,
    takenAt: { type: ['string', 'null'], format: 'date-time', description: 'the time of the position it carries' },
    receivedAt: { type: 'string', format: 'date-time' },
    bytes: int,
    url: { type: 'string', description: 'where its content is fetched' },
  },
} as const;

export type VehicleMedia = FromSchema<typeof vehicleMediaSchema>;
