import type { Kysely } from 'kysely';
import type { AnnounceSessionChange } from '../platform/auth/sessionChanges';
import type { SessionDeps } from '../platform/auth/sessions';
import type { DB } from '../platform/db/tables';
import type { ThrottlePolicy } from './throttle';

export interface PassportDeps extends SessionDeps {
  db: Kysely<DB>;
  throttle: ThrottlePolicy;
  /** Tells every process's live sockets that sessions ended or changed scope (passport/sessionEnds.ts). */
  sessionsChanged: AnnounceSessionChange;
}
