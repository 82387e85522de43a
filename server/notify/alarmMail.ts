/**
 * The e-mail an alarm rule sends: a subject naming the vehicle and the alarm type, and a body
 * listing the alarm's fields as the webhook payload carries them (codes and ISO times, which the
 * receiving side reads the same in every language).
 */

import type { LiveRaisedAlarm } from '../telematics/live/hub';
import type { MailMessage } from './smtp';

export function alarmMail(alarm: LiveRaisedAlarm, to: string[]): MailMessage {
  const lines = [
    `alarm: ${alarm.type} (${alarm.category}, ${alarm.level})`,
    `vehicle: ${alarm.licence} (#${alarm.vehicleId})`,
    `begin: ${alarm.begin}`,
    `end: ${alarm.end ?? '-'}`,
    `place: ${alarm.latitude ?? '-'}, ${alarm.longitude ?? '-'}`,
    `value: ${alarm.value ?? '-'}`,
    ...(alarm.detail ? [`detail: ${JSON.stringify(alarm.detail)}`] : []),
    `id: ${alarm.id}`,
  ];
  return { to, subject: `${alarm.licence} ${alarm.type}`, text: lines.join('\n') + '\n' };
}
