import type { Kysely } from 'kysely';
import type { SessionDeps } from '../auth/sessions';
import type { DB } from '../db/tables';
import type { ThrottlePolicy } from './throttle';

export interface PassportDeps extends SessionDeps {
  db: Kysely<DB>;
  throttle: ThrottlePolicy;
}
