import type { Kysely } from 'kysely';
import type { SessionDeps } from '../platform/auth/sessions';
import type { DB } from '../platform/db/tables';
import type { ThrottlePolicy } from './throttle';

export interface PassportDeps extends SessionDeps {
  db: Kysely<DB>;
  throttle: ThrottlePolicy;
}
