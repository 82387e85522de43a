/**
 * Remote upgrade: 0x8108 the package (the platform sends it split into packages; the terminal
 * answers each with 0x0001) and 0x0108 the terminal's result.
 *   0x8108: type BYTE (0 terminal, 12 road-transport IC card reader, 52 GNSS module), maker id
 *           BYTE[5] (2019: [11]), version (BYTE length + GBK), package length DWORD, package bytes.
 *   0x0108: type BYTE, result BYTE (0 upgraded, 1 failed, 2 cancelled).
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putFixedGbk, putGbk8 } from './write';

export const UPGRADE_TYPES: Readonly<Record<number, string>> = { 0: 'terminal', 12: 'icCardReader', 52: 'gnssModule' };
export const UPGRADE_RESULTS = ['upgraded', 'failed', 'cancelled'] as const;

export interface UpgradePackageBody {
  type: number;
  makerId: string;
  version: string;
  data: Buffer;
}

export function decodeUpgradePackage(p: Buffer, start: number, end: number, version: Jt808Version): UpgradePackageBody {
  const r = new BodyReader(p, start, end, '0x8108');
  const type = r.u8('type');
  const makerId = r.gbk(version === 2019 ? 11 : 5, 'makerId');
  const packageVersion = r.gbk8('version');
  const length = r.u32('length');
  const body = { type, makerId, version: packageVersion, data: r.bytes(length, 'package') };
  r.done();
  return body;
}

export function encodeUpgradePackage(b: UpgradePackageBody, version: Jt808Version): Buffer {
  const w = new ByteWriter(32 + b.data.length).u8(b.type);
  putFixedGbk(w, b.makerId, version === 2019 ? 11 : 5, 'makerId');
  putGbk8(w, b.version, 'version');
  return w.u32(b.data.length).bytes(b.data).finish();
}

export interface UpgradeResultBody {
  type: number;
  result: number;
}

export function decodeUpgradeResult(p: Buffer, start: number, end: number): UpgradeResultBody {
  const r = new BodyReader(p, start, end, '0x0108');
  const body = { type: r.u8('type'), result: r.u8('result') };
  r.done();
  return body;
}

export function encodeUpgradeResult(b: UpgradeResultBody): Buffer {
  return new ByteWriter(2).u8(b.type).u8(b.result).finish();
}
