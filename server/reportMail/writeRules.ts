/**
 * A report schedule's rules beyond its schema, as a body check of the generic CRUD (the body merged
 * over the stored row on update, each row of an import): a weekly schedule names its weekday, a
 * monthly one its day, and the recipients are e-mail addresses, at least one.
 */

import type { FieldError } from '../../schemas/kit/errors';
import type { BodyCheck } from '../platform/crud/routes';
import { isMailbox } from '../notify/smtp';
import { addressesOf } from './mailer';

const LABEL = 'entity.reportSchedule.fields';
const error = (field: string, key: string, params: Record<string, string | number> = {}): FieldError => ({
  field,
  key,
  params,
  labelKey: `${LABEL}.${field}`,
});

export const checkReportScheduleBody: BodyCheck = (body) => {
  const errors: FieldError[] = [];
  if (body.frequency === 'weekly' && typeof body.weekday !== 'number')
    errors.push(error('weekday', 'validation.reportSchedule.weekdayRequired'));
  if (body.frequency === 'monthly' && typeof body.monthDay !== 'number')
    errors.push(error('monthDay', 'validation.reportSchedule.monthDayRequired'));
  if (typeof body.recipients === 'string') {
    const addresses = addressesOf(body.recipients);
    const bad = addresses.filter((a) => !isMailbox(a));
    if (bad.length) errors.push(error('recipients', 'validation.reportSchedule.badRecipients', { values: bad.join(', ') }));
    else if (!addresses.length) errors.push(error('recipients', 'validation.required'));
  }
  return errors;
};
