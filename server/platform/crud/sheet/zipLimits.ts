import { inflateRawSync } from 'node:zlib';
import { AppError } from '../../http/errors';

/** Entries an xlsx of ours or Excel's holds are a dozen or two; thousands mean a crafted file. */
export const MAX_XLSX_ENTRIES = 500;
/** Uncompressed bytes of all entries: a 10,000-row import is a few MB of XML; far more is a bomb. */
export const MAX_XLSX_INFLATED = 40 * 1024 * 1024;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** General purpose flag: sizes and CRC follow the data (a data descriptor) instead of the local header. */
const DATA_DESCRIPTOR = 0x08;

interface Entry {
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

const unreadable = () => new AppError(400, 'sheet.unreadable');
const irregular = () => new AppError(400, 'sheet.irregularZip');
const tooLarge = () => new AppError(400, 'sheet.inflatedTooLarge', { limit: `${MAX_XLSX_INFLATED / (1024 * 1024)} MB` });

/**
 * The central directory: every entry with its declared sizes. Only an archive whose records say
 * one thing is read: the end record ends the file, and the directory ends right where the end
 * record starts. A reader that finds bytes unaccounted for between where the directory should end
 * and the end record takes them for data prepended to the archive and shifts every offset by them
 * (JSZip, inside exceljs, does: lib/zipEntries.js readEndOfCentral), so it would parse another
 * directory than the one checked here. Zip64 is refused: no xlsx this small needs it.
 */
function centralDirectory(zip: Buffer): { entries: Entry[]; directoryAt: number } {
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
  const disk = zip.readUInt16LE(eocd + 4);
  const directoryDisk = zip.readUInt16LE(eocd + 6);
  const countHere = zip.readUInt16LE(eocd + 8);
  const directorySize = zip.readUInt32LE(eocd + 12);
  const directoryAt = zip.readUInt32LE(eocd + 16);
  const commentLen = zip.readUInt16LE(eocd + 20);
  if (
    eocd + 22 + commentLen !== zip.length ||
    disk !== 0 ||
    directoryDisk !== 0 ||
    countHere !== count ||
    directoryAt + directorySize !== eocd
  )
    throw irregular();
  let at = directoryAt;
  const entries: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > eocd || zip.readUInt32LE(at) !== CENTRAL) throw irregular();
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    if (compressed === 0xffffffff || size === 0xffffffff) throw tooLarge();
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const entryCommentLen = zip.readUInt16LE(at + 32);
    entries.push({ method: zip.readUInt16LE(at + 10), compressed, size, localOffset: zip.readUInt32LE(at + 42) });
    at += 46 + nameLen + extraLen + entryCommentLen;
  }
  // Records past the declared count (a reader may go on while it finds them) or a short directory.
  if (at !== eocd) throw irregular();
  return { entries, directoryAt };
}

/** Where each entry's data lies; entries must start at byte 0, in order, none overlapping another or the directory. */
function dataOf(zip: Buffer, entries: Entry[], directoryAt: number): Buffer[] {
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  if (byOffset.length && byOffset[0].localOffset !== 0) throw irregular();
  const data = new Map<Entry, Buffer>();
  byOffset.forEach((e, i) => {
    const at = e.localOffset;
    if (at + 30 > directoryAt || zip.readUInt32LE(at) !== LOCAL) throw irregular();
    const flags = zip.readUInt16LE(at + 6);
    if (zip.readUInt16LE(at + 8) !== e.method) throw irregular();
    // Without a data descriptor the local header states the sizes too; they must agree.
    if (!(flags & DATA_DESCRIPTOR) && (zip.readUInt32LE(at + 18) !== e.compressed || zip.readUInt32LE(at + 22) !== e.size))
      throw irregular();
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    const end = start + e.compressed;
    if (end > (byOffset[i + 1]?.localOffset ?? directoryAt)) throw irregular();
    data.set(e, zip.subarray(start, end));
  });
  return entries.map((e) => data.get(e)!);
}

/**
 * Refuses an xlsx whose entries would inflate past MAX_XLSX_INFLATED, that holds more than
 * MAX_XLSX_ENTRIES entries, or whose layout could be read two ways, before any parser sees it.
 * Declared sizes can lie, so each entry is also inflated with its declared size as a hard output
 * cap (zlib stops there): the work done here is bounded by the cap, whatever the file claims, and
 * the parser inflates the very bytes inflated here.
 */
export function checkXlsxBounds(zip: Buffer): void {
  const { entries, directoryAt } = centralDirectory(zip);
  const total = entries.reduce((s, e) => s + e.size, 0);
  if (total > MAX_XLSX_INFLATED) throw tooLarge();
  const data = dataOf(zip, entries, directoryAt);
  entries.forEach((e, i) => {
    if (e.method === 0) {
      if (e.compressed !== e.size) throw unreadable();
      return;
    }
    if (e.method !== 8) throw unreadable();
    let out: Buffer;
    try {
      out = inflateRawSync(data[i], { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : unreadable();
    }
    if (out.length !== e.size) throw unreadable();
  });
}
