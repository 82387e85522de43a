/**
 * The PostgreSQL storage path for positions: the batch goes in with COPY (text format, through
 * pg-copy-streams) into a per-connection temporary table, then the same insert-and-upsert as the
 * unnest statement reads it, all in one transaction. Measured faster than unnest (README, "Storage
 * path"): the client writes one tab-separated text instead of serialising 17 arrays, and the server
 * parses rows instead of array literals. PGlite keeps the unnest statement (no COPY FROM STDIN).
 */

import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { decimalText } from '../../platform/decimalText';
import { isoFromEpochMs } from '../jt808/time';
import { isAttachRace, retryAttachRace } from './attachRace';
import type { PositionRecord } from './records';
import { INPUT_COLUMNS, insertedKeys, STORE_FROM_INPUT } from './positionSql';

/** Connections that already hold the temporary table (it lives as long as the connection). */
const prepared = new WeakSet<pg.PoolClient>();

/** COPY's text format: backslash, tab and line breaks escaped; \N is NULL. */
function text(v: string | null): string {
  if (v === null) return '\\N';
  return /[\\\t\n\r]/.test(v) ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : v;
}
const num = (v: number | null): string => (v === null || !Number.isFinite(v) ? '\\N' : decimalText(v));
const bool = (v: boolean): string => (v ? 't' : 'f');

/**
 * The batch as COPY text, one line per position, in INPUT_COLUMNS order. One template per line and
 * the codec's ISO formatter: an array join and Date#toISOString per row took a third of the text's time.
 */
export function copyText(records: PositionRecord[]): string {
  let out = '';
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    out +=
      `${r.terminalId}\t${isoFromEpochMs(r.deviceTime)}\t${num(r.vehicleId)}\t${num(r.latitude)}\t${num(r.longitude)}\t` +
      `${num(r.altitude)}\t${num(r.speed)}\t${num(r.direction)}\t${r.alarm}\t${r.status}\t${bool(r.acc)}\t${bool(r.fixed)}\t` +
      `${num(r.mileageKm)}\t${num(r.fuelL)}\t${bool(r.blind)}\t${text(r.extras ? JSON.stringify(r.extras) : null)}\t` +
      `${text(r.dtcs ? r.dtcs.join(',') : null)}\n`;
  }
  return out;
}

export async function copyPositions(pool: pg.Pool, records: PositionRecord[]): Promise<Set<string>> {
  return retryAttachRace(() => copyOnce(pool, records));
}

async function copyOnce(pool: pg.Pool, records: PositionRecord[]): Promise<Set<string>> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    if (!prepared.has(client)) {
      await client.query(`CREATE TEMP TABLE IF NOT EXISTS position_in (${INPUT_COLUMNS}) ON COMMIT DELETE ROWS`);
      prepared.add(client);
    }
    await pipeline(Readable.from([copyText(records)]), client.query(copyFrom('COPY position_in FROM STDIN')));
    const r = await client.query<{ terminal_id: number; ms: number }>(`WITH input AS (SELECT * FROM position_in),${STORE_FROM_INPUT}`);
    await client.query('COMMIT');
    return insertedKeys(r.rows);
  } catch (e) {
    broken = e instanceof Error ? e : new Error(String(e));
    await client.query('ROLLBACK').catch(() => undefined);
    // The rollback may have taken a temporary table created in this transaction with it.
    prepared.delete(client);
    throw broken;
  } finally {
    // A connection that failed mid-COPY is not trusted again: the pool replaces it. A lost attach
    // race failed after the COPY, in a statement the ROLLBACK cleared: that connection stays.
    client.release(broken && !isAttachRace(broken) ? broken : undefined);
  }
}
