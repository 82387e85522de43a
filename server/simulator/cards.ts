/**
 * The IC cards of the demo drivers: a demo vehicle's driver inserts the card at the vehicle's first
 * ignition on of the day and takes it out at the last ignition off (0x0702), so the platform's
 * driver sessions, per-driver figures and unknown-card list have something to show.
 */

import type { DriverIdentityBody, LocationInput } from '../telematics/jt808/codec';
import { localDay } from '../intelligence/localDay';

/** The card a simulated driver carries (its number is the qualification certificate number). */
export interface SimCard {
  cardNo: string;
  name: string;
}

/** A card no demo driver holds: one demo vehicle's driver carries it, so the unknown-card list has a row. */
export const UNKNOWN_DEMO_CARD: SimCard = { cardNo: 'QC900001', name: '临时司机' };

/** The demo terminal (by its index in the demo fixtures) whose driver carries the unknown card. */
export const UNKNOWN_CARD_TERMINAL = 1;

const timeOf = (r: LocationInput) => new Date(r.time ?? NaN).getTime();
/** Ignition on: the status word's bit 0, or the decoded flag. */
const accOn = (r: LocationInput) => (typeof r.status === 'number' ? (r.status & 1) === 1 : r.status?.accOn === true);

/** 0x0702 bodies inserting and removing a card at `at` (epoch ms). */
export const cardIn = (card: SimCard, at: number): DriverIdentityBody => ({
  status: 1,
  time: new Date(at).toISOString(),
  readResult: 0,
  name: card.name,
  certificate: card.cardNo,
  issuer: '道路运输管理局',
  validUntil: '20301231',
});
export const cardOut = (at: number): DriverIdentityBody => ({ status: 2, time: new Date(at).toISOString() });

/**
 * One day's card events from its reports (in time order): in at the first report with the ignition
 * on, out at the first report with it off after the last one on (none on a day never driven).
 */
export function dayCardEvents(reports: readonly LocationInput[], card: SimCard): DriverIdentityBody[] {
  const on = reports.map(accOn);
  const first = on.indexOf(true);
  if (first < 0) return [];
  const last = on.lastIndexOf(true);
  const off = reports[last + 1] ?? reports[last];
  return [cardIn(card, timeOf(reports[first])), cardOut(timeOf(off))];
}

/**
 * The live fleet's rule, report by report: the card goes in at the first ignition on of a local
 * day and comes out at the first ignition off from 20:00 on.
 */
export class LiveCardHolder {
  private inSince: string | null = null;

  constructor(
    private readonly card: SimCard,
    private readonly timeZone = 'Asia/Shanghai',
  ) {}

  /** The 0x0702 body this report calls for, if any. */
  next(report: LocationInput): DriverIdentityBody | null {
    const at = timeOf(report);
    const day = localDay(at, this.timeZone);
    const acc = accOn(report);
    if (acc && this.inSince !== day) {
      this.inSince = day;
      return cardIn(this.card, at);
    }
    const hour = Number(new Date(at).toLocaleString('en-GB', { timeZone: this.timeZone, hour: '2-digit', hourCycle: 'h23' }));
    if (!acc && this.inSince === day && hour >= 20) {
      this.inSince = `${day}:out`;
      return cardOut(at);
    }
    return null;
  }
}
