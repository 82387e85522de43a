/**
 * Codes of JT/T 808 multimedia (0x0800/0x0801) that the server decodes by and the console filters
 * by: one list, read by both.
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
