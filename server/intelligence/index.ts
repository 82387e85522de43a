/**
 * Derivation wiring for the server: one pipeline fed by the store writers' commits, running the
 * engine's derivers in the order engine.ts lists them.
 */

import type { Deriver } from './deriver';
import { DerivationPipeline, type PipelineOptions, type PipelineStats } from './pipeline';
import { engineDerivers } from './engine';
import { subscribeStored, type StoredSource } from './subscription';

export { busSources } from './subscription';

export type { Deriver } from './deriver';

/** The engine without its alarms and what reads them: trips, the ledger, the replay's levels (engine.ts). */
export function intelligenceDerivers(): Deriver[] {
  return engineDerivers({ alarms: null });
}

/** The pipeline's own options, forwarded as given; its derivers from `derivers` or the defaults. */
export interface DerivationOptions extends Pick<
  PipelineOptions,
  'db' | 'timeZone' | 'log' | 'lingerMs' | 'batchSize' | 'oneConnection' | 'workers'
> {
  /** The writers whose commits feed the pipeline (positions, OBD records). */
  sources: StoredSource[];
  /** Every deriver, in order (engine.ts's engineDerivers). Absent: intelligenceDerivers, then `extraDerivers`. */
  derivers?: Deriver[];
  /** Without `derivers`: derivers run after intelligenceDerivers (tests). */
  extraDerivers?: Deriver[];
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
  const { sources, derivers, extraDerivers, ...options } = opts;
  const pipeline = new DerivationPipeline({ ...options, derivers: derivers ?? [...intelligenceDerivers(), ...(extraDerivers ?? [])] });
  const unsubscribe = subscribeStored(sources, pipeline);
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
