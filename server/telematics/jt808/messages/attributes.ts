/**
 * 0x8107 query terminal attributes (empty body) and 0x0107 the answer:
 *   terminal type WORD, maker id BYTE[5] (2019: [11]), model BYTE[20] (2019: [30]), terminal id
 *   BYTE[7] (2019: [30]), ICCID BCD[10], hardware version (BYTE length + GBK), firmware version
 *   (BYTE length + GBK), GNSS module BYTE, communication module BYTE.
 * Type bits: 0 passenger, 1 dangerous goods, 2 freight, 3 taxi, 6 video recorder, 7 split unit.
 * GNSS bits: 0 GPS, 1 BeiDou, 2 GLONASS, 3 Galileo. Module bits: 0 GPRS, 1 CDMA, 2 TD-SCDMA,
 * 3 WCDMA, 4 CDMA2000, 5 TD-LTE, 7 other.
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putBcd, putFixedGbk, putGbk8 } from './write';

export interface TerminalAttributesBody {
  terminalType: number;
  makerId: string;
  model: string;
  terminalId: string;
  /** 20 BCD digits, leading zeros kept. */
  iccid: string;
  hardwareVersion: string;
  firmwareVersion: string;
  gnss: number;
  comms: number;
}

function sizes(version: Jt808Version): [maker: number, model: number, id: number] {
  return version === 2019 ? [11, 30, 30] : [5, 20, 7];
}

export function decodeTerminalAttributes(p: Buffer, start: number, end: number, version: Jt808Version): TerminalAttributesBody {
  const r = new BodyReader(p, start, end, '0x0107');
  const [maker, model, id] = sizes(version);
  const body: TerminalAttributesBody = {
    terminalType: r.u16('terminalType'),
    makerId: r.gbk(maker, 'makerId'),
    model: r.gbk(model, 'model'),
    terminalId: r.gbk(id, 'terminalId'),
    iccid: r.bcd(10, 'iccid'),
    hardwareVersion: r.gbk8('hardwareVersion'),
    firmwareVersion: r.gbk8('firmwareVersion'),
    gnss: r.u8('gnss'),
    comms: r.u8('comms'),
  };
  r.done();
  return body;
}

export function encodeTerminalAttributes(b: TerminalAttributesBody, version: Jt808Version): Buffer {
  const [maker, model, id] = sizes(version);
  const w = new ByteWriter(128).u16(b.terminalType);
  putFixedGbk(w, b.makerId, maker, 'makerId');
  putFixedGbk(w, b.model, model, 'model');
  putFixedGbk(w, b.terminalId, id, 'terminalId');
  putBcd(w, b.iccid, 10);
  putGbk8(w, b.hardwareVersion, 'hardwareVersion');
  putGbk8(w, b.firmwareVersion, 'firmwareVersion');
  return w.u8(b.gnss).u8(b.comms).finish();
}
