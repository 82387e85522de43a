/**
 * Derivation wiring for the server: one pipeline fed by the store writers' commits, running the
 * engine's derivers in the order engine.ts lists them.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { Deriver } from './deriver';
import { DerivationPipeline, type PipelineLog, type PipelineStats } from './pipeline';
import { engineDerivers } from './engine';
import { subscribeStored, type StoredSource } from './subscription';

export { busSources } from './subscription';

export type { Deriver, DeriveWindow, DerivePosition, DeriveObdRecord, VehicleContext, TripSettings, TimeRange } from './deriver';
export { DerivationPipeline } from './pipeline';

/** The engine without its alarms and what reads them: trips, the ledger, the replay's levels (engine.ts). */
export function intelligenceDerivers(): Deriver[] {
  return engineDerivers({ alarms: null });
}

export interface DerivationOptions {
  db: Kysely<DB>;
  timeZone: string;
  /** The writers whose commits feed the pipeline (positions, OBD records). */
  sources: StoredSource[];
  log?: PipelineLog;
  /** Every deriver, in order (engine.ts's engineDerivers). Absent: intelligenceDerivers, then `extraDerivers`. */
  derivers?: Deriver[];
  /** Without `derivers`: derivers run after intelligenceDerivers (tests). */
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
    derivers: opts.derivers ?? [...intelligenceDerivers(), ...(opts.extraDerivers ?? [])],
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
