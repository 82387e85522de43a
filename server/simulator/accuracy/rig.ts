/**
 * What the accuracy suite drives its days through: the product's own path on a given database — the
 * JT/T 808 gateway over real TCP, the position and OBD writers, and the derivation pipeline with
 * the engine's derivers (engine.ts) fed by what they store — so it measures what the product computes.
 */

import type { Kysely } from 'kysely';
import pino from 'pino';
import { sql } from 'kysely';
import { startDerivation, type Derivation } from '../../intelligence';
import type { DB } from '../../platform/db/tables';
import { Jt808Gateway } from '../../telematics/gateway/server';
import type { LocationInput } from '../../telematics/jt808/codec';
import { ObdWriter } from '../../telematics/store/obdWriter';
import { PositionWriter } from '../../telematics/store/writer';
import { SimTerminal } from '../terminal';

export interface AccuracyRig {
  /** Sends a terminal's reports in order as blind-area batches of 8 (0x0704) and waits for their acknowledgement. */
  send(phone: string, reports: readonly LocationInput[]): Promise<void>;
  /** Waits until everything stored is derived. */
  derived(): Promise<void>;
  vehicleOf(phone: string): Promise<number>;
  close(): Promise<void>;
}

export async function startAccuracyRig(db: Kysely<DB>, timeZone = 'Asia/Shanghai'): Promise<AccuracyRig> {
  const writer = new PositionWriter(db);
  const obdWriter = new ObdWriter(db);
  const derivation: Derivation = await startDerivation({ db, timeZone, sources: [writer, obdWriter], lingerMs: 20 });
  const gateway = new Jt808Gateway({ db, log: pino({ level: 'silent' }), writer, obdWriter });
  const port = await gateway.listen(0, '127.0.0.1');
  const terminals = new Map<string, SimTerminal>();
  return {
    async send(phone, reports) {
      let t = terminals.get(phone);
      if (!t) {
        t = new SimTerminal({ host: '127.0.0.1', port, phone, ackTimeoutMs: 60_000 });
        terminals.set(phone, t);
        await t.connect();
      }
      for (let i = 0; i < reports.length; i += 8) t.reportBatch(reports.slice(i, i + 8), true);
      await t.drain(300_000);
    },
    async derived() {
      await Promise.all([writer.flush(), obdWriter.flush()]);
      await derivation.pipeline.idle();
    },
    async vehicleOf(phone) {
      const r = await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(db);
      if (!r.rows.length) throw new Error(`no vehicle is bound to terminal ${phone}`);
      return r.rows[0].id;
    },
    async close() {
      for (const t of terminals.values()) t.destroy();
      await gateway.close();
      await derivation.close();
    },
  };
}
