/**
 * Derivation wiring for the server: one pipeline fed by the store writers' commits, with the
 * derivers of this feature registered first (trips and stops with fuel events, then the daily
 * ledger that reads them, then the replay's minute level). Other features add theirs with
 * `pipeline.register(deriver)` before `start()`; a deriver registered later sees only windows
 * derived from then on.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { Deriver } from './deriver';
import { ledgerDeriver } from './ledger/ledgerDeriver';
import { DerivationPipeline, type PipelineLog, type PipelineStats } from './pipeline';
import { tripDeriver } from './trips/tripDeriver';
import { trackMinuteDeriver } from './track/minuteDeriver';
import { subscribeStored, type StoredSource } from './subscription';

export { busSources } from './subscription';

export type { Deriver, DeriveWindow, DerivePosition, DeriveObdRecord, VehicleContext, TripSettings, TimeRange } from './deriver';
export { DerivationPipeline } from './pipeline';

/** This feature's derivers, in the order they must run. */
export function intelligenceDerivers(): Deriver[] {
  return [tripDeriver(), ledgerDeriver, trackMinuteDeriver()];
}

export interface DerivationOptions {
  db: Kysely<DB>;
  timeZone: string;
  /** The writers whose commits feed the pipeline (positions, OBD records). */
  sources: StoredSource[];
  log?: PipelineLog;
  /** Derivers of other features, run after this feature's. */
  extraDerivers?: Deriver[];
  lingerMs?: number;
  /** Vehicles derived together in one transaction (the pipeline's default unless set). */
  batchSize?: number;
  /** The database has one connection (PGlite; the pipeline then derives smaller batches). */
  oneConnection?: boolean;
  /** Batches derived at once (the pipeline's default unless set). */
  workers?: number;
}

/** A running derivation, in this thread or its own (thread/derivationThread.ts). */
export interface DerivationHandle {
  /** Resolves once everything marked so far is derived. */
  idle(): Promise<void>;
  /** What the passes did so far. */
  stats(): Promise<PipelineStats>;
  /** Finishes the pass in progress; what is still pending stays marked for the next start. */
  close(): Promise<void>;
}

/** The derivation in this thread, with its pipeline (tests, the benches, `npm run derive`). */
export interface Derivation extends DerivationHandle {
  pipeline: DerivationPipeline;
}

/** Subscribes the pipeline to the writers and resumes what a previous process left pending. */
export async function startDerivation(opts: DerivationOptions): Promise<Derivation> {
  const pipeline = new DerivationPipeline({
    db: opts.db,
    timeZone: opts.timeZone,
    log: opts.log,
    lingerMs: opts.lingerMs,
    batchSize: opts.batchSize,
    oneConnection: opts.oneConnection,
    workers: opts.workers,
    derivers: [...intelligenceDerivers(), ...(opts.extraDerivers ?? [])],
  });
  const unsubscribe = subscribeStored(opts.sources, pipeline);
  await pipeline.start();
  return {
    pipeline,
    idle: () => pipeline.idle(),
    stats: async () => pipeline.stats,
    async close() {
      unsubscribe();
      await pipeline.stop();
    },
  };
}
