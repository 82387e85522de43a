/**
 * The e-mail to a subscription's contact when its endpoint is paused for failing: what was paused,
 * since when it failed, and how to resume, in Chinese and English (a subscription keeps no language
 * of its own; its receivers are integrators', whom these two reach).
 */

import { translator } from '../../schemas/kit/catalogue';
import type { Language } from '../../schemas/kit/i18n';
import type { MailMessage } from '../notify/smtp';
import { PAUSE_AFTER_MS } from './outbox';

const LANGUAGES: readonly Language[] = ['zh-CN', 'en-US'];

export interface PausedSubscription {
  name: string;
  url: string;
  contactEmail: string;
  failingSince: Date;
}

export function pausedMail(p: PausedSubscription): MailMessage {
  const params = { name: p.name, url: p.url, since: p.failingSince.toISOString(), hours: PAUSE_AFTER_MS / 3_600_000 };
  const ts = LANGUAGES.map((l) => translator(l));
  return {
    to: [p.contactEmail],
    subject: ts.map((t) => t('subscription.pausedMail.subject', params)).join(' / '),
    text: ts.map((t) => t('subscription.pausedMail.body', params)).join('\n\n') + '\n',
  };
}
