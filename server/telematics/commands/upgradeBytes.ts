import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { BytesBySha256 } from '../cluster/downlink';

/**
 * An upgrade package's bytes by their SHA-256, for the gateway worker that holds the terminal: the
 * package travels over NATS by its hash alone (cluster/downlink.ts), its bytes from where the
 * upload stored them.
 */
export const upgradeBytes =
  (db: Kysely<DB>): BytesBySha256 =>
  async (sha256) => {
    const row = await db.selectFrom('upgrade_package').select('content').where('sha256', '=', sha256).limit(1).executeTakeFirst();
    return row ? Buffer.from(row.content) : null;
  };
