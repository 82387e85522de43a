/**
 * Where the pipeline hears about committed reports: the server bus's 'positions.stored' and
 * 'obd.stored' topics (busSources), or, in tests that run a bare gateway, the writers themselves.
 */

import type { ServerBus } from '../platform/bus';
import type { StoredRecords } from '../platform/telemetry';
import type { DerivationPipeline, StoredSpan } from './pipeline';

/** What both writers store: something of a vehicle at a device time. */
interface VehicleRecord {
  vehicleId: number | null;
  deviceTime: number;
}

/** A batch one of the writers committed. */
export type StoredBatch = StoredRecords<VehicleRecord>;

/** The position writer or the OBD record writer: both emit 'stored' after each commit. */
export interface StoredSource {
  on(event: 'stored', listener: (batch: StoredBatch) => void): unknown;
  off(event: 'stored', listener: (batch: StoredBatch) => void): unknown;
}

/** Per vehicle: the device times a committed batch stored. Records of no vehicle are skipped. */
export function spansOf(batch: StoredBatch): StoredSpan[] {
  const byVehicle = new Map<number, StoredSpan>();
  for (const { record } of batch.inserted) {
    if (record.vehicleId === null) continue;
    const s = byVehicle.get(record.vehicleId);
    if (!s) byVehicle.set(record.vehicleId, { vehicleId: record.vehicleId, from: record.deviceTime, to: record.deviceTime, count: 1 });
    else {
      if (record.deviceTime < s.from) s.from = record.deviceTime;
      if (record.deviceTime > s.to) s.to = record.deviceTime;
      s.count++;
    }
  }
  return [...byVehicle.values()];
}

/** Feeds every batch the writers commit to the pipeline; returns the unsubscribe function. */
export function subscribeStored(sources: StoredSource[], pipeline: DerivationPipeline): () => void {
  const listener = (batch: StoredBatch) => void pipeline.mark(spansOf(batch));
  for (const s of sources) s.on('stored', listener);
  return () => {
    for (const s of sources) s.off('stored', listener);
  };
}

/** The bus topics telematics publishes committed batches on, as sources of the pipeline. */
export function busSources(bus: ServerBus): StoredSource[] {
  return (['positions.stored', 'obd.stored'] as const).map((topic) => {
    const unsubscribers = new Map<(batch: StoredBatch) => void, () => void>();
    return {
      on: (_event: 'stored', listener: (batch: StoredBatch) => void) => unsubscribers.set(listener, bus.subscribe(topic, listener)),
      off: (_event: 'stored', listener: (batch: StoredBatch) => void) => {
        unsubscribers.get(listener)?.();
        unsubscribers.delete(listener);
      },
    };
  });
}
