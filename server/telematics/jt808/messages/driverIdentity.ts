/**
 * 0x0702 driver identity report (the IC card reader) and 0x8702 its request (empty body).
 *   2013/2019: status BYTE (1 card in / on duty, 2 card out / off duty), time BCD[6]; when in:
 *     read result BYTE (0 read, 1 key refused, 2 card locked, 3 card pulled, 4 checksum error);
 *     when read: name (BYTE length + GBK), qualification certificate STRING[20], issuer (BYTE length
 *     + GBK), certificate valid until BCD[4] YYYYMMDD; 2019 adds the driver's ID card number STRING[20].
 *   2011: name (BYTE length + GBK), ID card number STRING[20], qualification certificate STRING[40],
 *     issuer (BYTE length + GBK); no status, no time.
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';
import { putBcd, putFixedGbk, putGbk8, putTime } from './write';

export const CARD_STATUS = { inserted: 1, removed: 2 } as const;
export const CARD_READ_RESULTS = ['read', 'keyRefused', 'cardLocked', 'cardPulled', 'checksumError'] as const;

export interface DriverIdentityBody {
  /** 1 inserted, 2 removed; absent in the 2011 layout. */
  status?: number;
  /** ISO UTC of the insertion or removal, null when the terminal sent no valid time. */
  time?: string | null;
  /** Card read result when inserted (0: the fields below follow). */
  readResult?: number;
  name?: string;
  /** The driver's qualification certificate number: what the platform matches a card with. */
  certificate?: string;
  issuer?: string;
  /** YYYYMMDD as sent. */
  validUntil?: string;
  /** 2019 and 2011: the driver's ID card number. */
  idNumber?: string;
}

export function decodeDriverIdentity(p: Buffer, start: number, end: number, version: Jt808Version, tz: number): DriverIdentityBody {
  const r = new BodyReader(p, start, end, '0x0702');
  if (version === 2011) {
    const body: DriverIdentityBody = { name: r.gbk8('name'), idNumber: r.gbk(20, 'idNumber'), certificate: r.gbk(40, 'certificate') };
    body.issuer = r.gbk8('issuer');
    r.done();
    return body;
  }
  const status = r.u8('status');
  const body: DriverIdentityBody = { status, time: r.time('time', tz) };
  if (status === CARD_STATUS.inserted) {
    const readResult = r.u8('readResult');
    body.readResult = readResult;
    if (readResult === 0) {
      body.name = r.gbk8('name');
      body.certificate = r.gbk(20, 'certificate');
      body.issuer = r.gbk8('issuer');
      body.validUntil = r.bcd(4, 'validUntil');
      if (version === 2019) body.idNumber = r.gbk(20, 'idNumber');
    }
  }
  r.done();
  return body;
}

export function encodeDriverIdentity(b: DriverIdentityBody, version: Jt808Version, tz: number): Buffer {
  const w = new ByteWriter(96);
  if (version === 2011) {
    putGbk8(w, b.name ?? '', 'name');
    putFixedGbk(w, b.idNumber ?? '', 20, 'idNumber');
    putFixedGbk(w, b.certificate ?? '', 40, 'certificate');
    putGbk8(w, b.issuer ?? '', 'issuer');
    return w.finish();
  }
  if (b.status === undefined) throw new Jt808EncodeError('BAD_FIELD', '0x0702: status is required from 2013 on');
  w.u8(b.status);
  putTime(w, b.time ?? null, tz);
  if (b.status === CARD_STATUS.inserted) {
    const readResult = b.readResult ?? 0;
    w.u8(readResult);
    if (readResult === 0) {
      putGbk8(w, b.name ?? '', 'name');
      putFixedGbk(w, b.certificate ?? '', 20, 'certificate');
      putGbk8(w, b.issuer ?? '', 'issuer');
      putBcd(w, b.validUntil ?? '00000000', 4);
      if (version === 2019) putFixedGbk(w, b.idNumber ?? '', 20, 'idNumber');
    }
  }
  return w.finish();
}
