/**
 * Which uploaded media (0x0801) belong to an alarm: the one rule, used by the alarm's evidence.
 * A photo, recording or clip belongs to an alarm of its vehicle when the terminal took it for that
 * kind of alarm (its 0x0800 event: a robbery alarm for an emergency, a collision alarm for a crash
 * or a collision warning) at a time within the alarm's span, widened by a margin: a terminal
 * photographs as it raises the alarm, and its clock and the time the alarm was derived at differ by
 * seconds. An alarm still open spans up to now.
 */

import { sql, type RawBuilder } from 'kysely';
import type { AlarmType } from '../../intelligence/alarms/types';
import { MEDIA_EVENTS } from '../jt808/codec';

type AlarmEvent = Extract<(typeof MEDIA_EVENTS)[number], 'robberyAlarm' | 'collisionAlarm'>;

/** The alarm types whose media a terminal uploads under each alarm event. */
const PHOTOGRAPHED: Record<AlarmEvent, readonly AlarmType[]> = {
  robberyAlarm: ['Sos', 'Stolen'],
  collisionAlarm: ['Crash', 'ForwardCollision', 'PedestrianCollision', 'HeadwayClose', 'Obstacle'],
};

/** How far before its start and after its end a media still belongs to an alarm. */
export const ALARM_MEDIA_MARGIN_S = 60;

/** When a media was taken: the position it carries (2013 and later), else when it arrived. */
export const MEDIA_TIME = sql`coalesce(m.taken_at, m.received_at)`;

/** The 0x0800 event codes of the media an alarm of this type has (none: it has no media). */
export function alarmMediaEvents(type: string): number[] {
  return (Object.keys(PHOTOGRAPHED) as AlarmEvent[])
    .filter((e) => (PHOTOGRAPHED[e] as readonly string[]).includes(type))
    .map((e) => MEDIA_EVENTS.indexOf(e));
}

/** The condition on `media m` that it belongs to this alarm; null when an alarm of its type has none. */
export function belongsToAlarm(alarm: { vehicleId: number; type: string; begin: Date; end: Date | null }): RawBuilder<boolean> | null {
  const events = alarmMediaEvents(alarm.type);
  if (!events.length) return null;
  const from = new Date(alarm.begin.getTime() - ALARM_MEDIA_MARGIN_S * 1000);
  const to = new Date((alarm.end ?? new Date()).getTime() + ALARM_MEDIA_MARGIN_S * 1000);
  return sql<boolean>`m.vehicle_id = ${alarm.vehicleId} AND m.event IN (${sql.join(events)}) AND ${MEDIA_TIME} BETWEEN ${from} AND ${to}`;
}
