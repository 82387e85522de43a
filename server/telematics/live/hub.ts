/**
 * Live push: fans stored positions (and the alarms they carry) out to subscribers, each seeing
 * only vehicles whose organisation lies in its subtree. Lossy by design for slow clients: a
 * subscriber whose socket is backed up misses messages rather than growing server memory.
 */

import { decodeAlarm } from '../jt808/codec';
import type { PositionRecord, TerminalIdentity } from '../store/records';
import type { StoredBatch } from '../store/writer';
import { pathInSubtree } from '../../platform/scope';
import type { LiveHubMessage, LivePosition, LiveRaisedAlarm } from '../../../schemas/kit/monitor';

export type { LivePosition, LiveAlarm, LiveRaisedAlarm } from '../../../schemas/kit/monitor';

/** What the hub fans out (schemas/kit, shared with the console). */
export type LiveMessage = LiveHubMessage;

export interface LiveSubscriber {
  /** '/1/4/': vehicles of this organisation and below. */
  orgPath: string;
  /** The member of this session: alarms go only to the members a notification rule names. */
  memberId?: number;
  /** Narrows to these vehicles when set. */
  vehicleIds?: ReadonlySet<number>;
  /** Bytes queued on the subscriber's socket. */
  backlog(): number;
  send(json: string): void;
}

export interface HubStats {
  subscribers: number;
  sent: number;
  dropped: number;
}

/** Above this backlog a subscriber skips messages until it catches up. */
const MAX_BACKLOG = 1024 * 1024;

function position(source: TerminalIdentity, r: PositionRecord): LivePosition {
  return {
    vehicleId: r.vehicleId!,
    licence: source.licence,
    terminalId: r.terminalId,
    time: new Date(r.deviceTime).toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    speed: r.speed,
    direction: r.direction,
    acc: r.acc,
    alarm: r.alarm,
    mileageKm: r.mileageKm,
    fuelL: r.fuelL,
    blind: r.blind,
  };
}

export class LiveHub {
  readonly stats: HubStats = { subscribers: 0, sent: 0, dropped: 0 };
  private readonly subscribers = new Set<LiveSubscriber>();

  constructor(readonly maxSubscribers = 2000) {}

  /** True while someone subscribes: otherwise stored batches need not reach the hub at all. */
  get listening(): boolean {
    return this.subscribers.size > 0;
  }

  /** False when full. */
  add(s: LiveSubscriber): boolean {
    if (this.subscribers.size >= this.maxSubscribers) return false;
    this.subscribers.add(s);
    this.stats.subscribers = this.subscribers.size;
    return true;
  }

  remove(s: LiveSubscriber): void {
    this.subscribers.delete(s);
    this.stats.subscribers = this.subscribers.size;
  }

  /** Listener for PositionWriter 'stored'. */
  publish = (batch: StoredBatch): void => {
    if (!this.subscribers.size) return;
    const rows = batch.inserted.filter((x) => x.record.vehicleId !== null && x.source.vehicleOrgPath !== null);
    if (!rows.length) return;
    for (const s of this.subscribers) {
      const mine = rows.filter(
        (x) => pathInSubtree(s.orgPath, x.source.vehicleOrgPath!) && (!s.vehicleIds || s.vehicleIds.has(x.record.vehicleId!)),
      );
      if (!mine.length) continue;
      this.deliver(s, { type: 'positions', items: mine.map((x) => position(x.source, x.record)) });
      const alarms = mine.filter((x) => x.record.alarm !== 0);
      if (alarms.length) {
        this.deliver(s, {
          type: 'alarms',
          items: alarms.map(({ source, record: r }) => ({
            vehicleId: r.vehicleId!,
            licence: source.licence,
            terminalId: r.terminalId,
            time: new Date(r.deviceTime).toISOString(),
            alarms: decodeAlarm(r.alarm).active,
            latitude: r.latitude,
            longitude: r.longitude,
          })),
        });
      }
    }
  };

  /** New alarms of the alarm engine, each to the subscribers whose subtree holds its vehicle. */
  publishRaised = (items: ReadonlyArray<{ orgPath: string; alarm: LiveRaisedAlarm; memberIds: ReadonlySet<number> }>): void => {
    if (!this.subscribers.size || !items.length) return;
    for (const s of this.subscribers) {
      const mine = items.filter(
        (x) =>
          s.memberId !== undefined &&
          x.memberIds.has(s.memberId) &&
          x.orgPath.startsWith(s.orgPath) &&
          (!s.vehicleIds || s.vehicleIds.has(x.alarm.vehicleId)),
      );
      if (mine.length) this.deliver(s, { type: 'alarm', items: mine.map((x) => x.alarm) });
    }
  };

  private deliver(s: LiveSubscriber, m: LiveMessage): void {
    if (s.backlog() > MAX_BACKLOG) {
      this.stats.dropped++;
      return;
    }
    s.send(JSON.stringify(m));
    this.stats.sent++;
  }
}
