/**
 * Reassembly of subpackaged messages (header bit 13, packet count/index, index from 1).
 *
 * A set is keyed by phone + msgId + count + the serial of packet 1. Packets of one message carry
 * consecutive serials, so the first serial is serial - (index - 1) for every packet, which lets
 * packets arrive in any order. Sets expire after a timeout (SmallChi's merger uses 5 minutes)
 * and the total buffered bytes are bounded: the least recently touched sets are evicted first.
 */

import { DEFAULT_TZ_OFFSET_MINUTES, MAX_BODY_LENGTH } from './constants';
import { buildMessage, type DecodedMessage, type MessageMeta, type OpaqueMessage } from './decode';

export interface SubpackageOptions {
  /** Drop a set not completed within this many ms of its last packet (default 5 min). */
  timeoutMs?: number;
  /** Bound on buffered fragment bytes across all sets (default 4 MiB). */
  maxBytes?: number;
  /** Bound on sets in progress (default 1024). */
  maxSets?: number;
  /** Device timezone for decoding the reassembled body (default 480). */
  tzOffsetMinutes?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface SubpackageStats {
  completed: number;
  expired: number;
  evicted: number;
  /** Sets refused outright (cannot fit the memory bound). */
  rejected: number;
  duplicates: number;
}

interface PendingSet {
  meta: MessageMeta;
  msgId: number;
  count: number;
  firstSerial: number;
  parts: (Buffer | undefined)[];
  received: number;
  bytes: number;
  touched: number;
}

/** Header fields of a fragment, without its packet info or body. */
function metaOf(m: MessageMeta): MessageMeta {
  const meta: MessageMeta = {
    version: m.version,
    phone: m.phone,
    serial: m.serial,
    properties: m.properties,
    encryption: m.encryption,
  };
  if (m.protocolVersion !== undefined) meta.protocolVersion = m.protocolVersion;
  return meta;
}

export class SubpackageAssembler {
  readonly stats: SubpackageStats = { completed: 0, expired: 0, evicted: 0, rejected: 0, duplicates: 0 };
  private readonly sets = new Map<string, PendingSet>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxSets: number;
  private readonly tz: number;
  private readonly now: () => number;
  private bytes = 0;

  constructor(options: SubpackageOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 5 * 60_000;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.maxSets = options.maxSets ?? 1024;
    this.tz = options.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES;
    this.now = options.now ?? Date.now;
  }

  get bufferedBytes(): number {
    return this.bytes;
  }

  get pendingSets(): number {
    return this.sets.size;
  }

  /**
   * Add one fragment (a decoded message with opaque === 'fragment'). Returns the reassembled
   * message when this fragment completes its set, else undefined. Decoding the whole body may
   * throw Jt808DecodeError, like decodeFrame.
   */
  push(fragment: OpaqueMessage): DecodedMessage | undefined {
    const packet = fragment.packet;
    if (fragment.opaque !== 'fragment' || !packet) return undefined;
    const now = this.now();
    this.sweep(now);
    const { count, index } = packet;
    const firstSerial = (fragment.serial - (index - 1)) & 0xffff;
    const key = `${fragment.phone}|${fragment.msgId}|${count}|${firstSerial}`;
    const size = fragment.body.length;

    let set = this.sets.get(key);
    if (!set) {
      // A set that cannot possibly fit is refused instead of evicting everything else.
      if (Math.min(count * MAX_BODY_LENGTH, size * count) > this.maxBytes) {
        this.stats.rejected++;
        return undefined;
      }
      set = {
        meta: metaOf(fragment),
        msgId: fragment.msgId,
        count,
        firstSerial,
        parts: new Array<Buffer | undefined>(count),
        received: 0,
        bytes: 0,
        touched: now,
      };
    } else {
      this.sets.delete(key); // re-inserted below: Map order = least recently touched first
    }
    const old = set.parts[index - 1];
    if (old) {
      this.stats.duplicates++;
      set.bytes -= old.length;
      this.bytes -= old.length;
    } else {
      set.received++;
    }
    set.parts[index - 1] = fragment.body;
    set.bytes += size;
    this.bytes += size;
    set.touched = now;
    this.sets.set(key, set);
    if (index === 1) set.meta = metaOf(fragment);

    if (set.received === set.count) {
      this.remove(key, set);
      this.stats.completed++;
      const body = Buffer.concat(set.parts as Buffer[]);
      const meta: MessageMeta = { ...set.meta, serial: set.firstSerial, packet: { count: set.count, index: 1 } };
      return buildMessage(set.msgId, meta, body, 0, body.length, this.tz);
    }
    this.enforceBounds(key);
    return undefined;
  }

  /**
   * What is still missing of the set a fragment belongs to (package indexes from 1, ascending),
   * with the first package's body when it arrived (a 0x0801's names its media id); undefined when
   * the set is complete or unknown. The gateway asks again for the missing ones.
   */
  missingOf(fragment: OpaqueMessage): { firstSerial: number; firstBody: Buffer | undefined; missing: number[] } | undefined {
    const packet = fragment.packet;
    if (!packet) return undefined;
    const firstSerial = (fragment.serial - (packet.index - 1)) & 0xffff;
    const set = this.sets.get(`${fragment.phone}|${fragment.msgId}|${packet.count}|${firstSerial}`);
    if (!set) return undefined;
    const missing: number[] = [];
    for (let i = 0; i < set.count; i++) if (!set.parts[i]) missing.push(i + 1);
    return { firstSerial, firstBody: set.parts[0], missing };
  }

  /** Drop sets idle for longer than the timeout. Call from a timer, or rely on push() doing it. */
  sweep(now = this.now()): void {
    for (const [key, set] of this.sets) {
      if (now - set.touched < this.timeoutMs) break; // the rest were touched later
      this.remove(key, set);
      this.stats.expired++;
    }
  }

  clear(): void {
    this.sets.clear();
    this.bytes = 0;
  }

  private enforceBounds(keep: string): void {
    for (const [key, set] of this.sets) {
      if (this.bytes <= this.maxBytes && this.sets.size <= this.maxSets) return;
      if (key === keep) continue;
      this.remove(key, set);
      this.stats.evicted++;
    }
    // Only the newest set is left and it alone is over the bound.
    const set = this.sets.get(keep);
    if (set && this.bytes > this.maxBytes) {
      this.remove(keep, set);
      this.stats.evicted++;
    }
  }

  private remove(key: string, set: PendingSet): void {
    this.sets.delete(key);
    this.bytes -= set.bytes;
  }
}
