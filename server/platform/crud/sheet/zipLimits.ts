import { inflateRawSync } from 'node:zlib';
import { AppError } from '../../http/errors';

/** Entries an xlsx of ours or Excel's holds are a dozen or two; thousands mean a crafted file. */
export const MAX_XLSX_ENTRIES = 500;
/** Uncompressed bytes of all entries: a 10,000-row import is a few MB of XML; far more is a bomb. */
export const MAX_XLSX_INFLATED = 40 * 1024 * 1024;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

const unreadable = () => new AppError(400, 'sheet.unreadable');
const tooLarge = () => new AppError(400, 'sheet.inflatedTooLarge', { limit: `${MAX_XLSX_INFLATED / (1024 * 1024)} MB` });

/** The central directory: every entry with its declared sizes (zip64 is refused: no xlsx this small needs it). */
function centralDirectory(zip: Buffer): Entry[] {
  const from = Math.max(0, zip.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = zip.length - 22; i >= from; i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable();
  const count = zip.readUInt16LE(eocd + 10);
  if (count > MAX_XLSX_ENTRIES) throw new AppError(400, 'sheet.tooManyEntries', { limit: MAX_XLSX_ENTRIES });
  let at = zip.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw unreadable();
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    if (compressed === 0xffffffff || size === 0xffffffff) throw tooLarge();
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLen), method: zip.readUInt16LE(at + 10), compressed, size, localOffset: zip.readUInt32LE(at + 42) });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Refuses an xlsx whose entries would inflate past MAX_XLSX_INFLATED, or that holds more than
 * MAX_XLSX_ENTRIES entries, before any parser sees it. Declared sizes can lie, so each entry is
 * also inflated with its declared size as a hard output cap (zlib stops there): the work done here
 * is bounded by the cap, whatever the file claims.
 */
export function checkXlsxBounds(zip: Buffer): void {
  const entries = centralDirectory(zip);
  const total = entries.reduce((s, e) => s + e.size, 0);
  if (total > MAX_XLSX_INFLATED) throw tooLarge();
  for (const e of entries) {
    if (e.localOffset + 30 > zip.length || zip.readUInt32LE(e.localOffset) !== LOCAL) throw unreadable();
    const start = e.localOffset + 30 + zip.readUInt16LE(e.localOffset + 26) + zip.readUInt16LE(e.localOffset + 28);
    const data = zip.subarray(start, start + e.compressed);
    if (e.method === 0) {
      if (e.compressed !== e.size) throw unreadable();
      continue;
    }
    if (e.method !== 8) throw unreadable();
    let out: Buffer;
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : unreadable();
    }
    if (out.length !== e.size) throw unreadable();
  }
}
