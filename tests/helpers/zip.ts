import { crc32, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';

/** One entry of a zip: its name, its bytes as stored (deflated unless `method` is 0) and their inflated size. */
export interface ZipPart {
  name: string;
  stored: Buffer;
  method: 0 | 8;
  size: number;
  crc: number;
}

/** A deflated entry of `data`. */
export const deflated = (name: string, data: Buffer): ZipPart => ({
  name,
  stored: deflateRawSync(data),
  method: 8,
  size: data.length,
  crc: crc32(data),
});

/**
 * A deflated entry of `size` spaces, built from one deflated block repeated: a few hundred KB that
 * inflate to hundreds of MB, without the test ever holding the inflated bytes.
 */
export function spaces(name: string, size: number): ZipPart {
  const block = 1024 * 1024;
  if (size % block) throw new Error('size must be a whole number of MB');
  // After a full flush the block ends on a byte boundary and refers to nothing before it, so copies chain.
  const one = deflateRawSync(Buffer.alloc(block, 0x20), { finishFlush: 3 /* Z_FULL_FLUSH */ });
  const end = deflateRawSync(Buffer.alloc(0)); // the final (empty) block
  let crc = 0;
  const chunk = Buffer.alloc(block, 0x20);
  for (let i = 0; i < size / block; i++) crc = crc32(chunk, crc);
  return { name, stored: Buffer.concat([...Array.from({ length: size / block }, () => one), end]), method: 8, size, crc };
}

/** The entries of a zip JSZip reads (an xlsx of ours), deflated again one by one. */
export async function partsOf(zip: Buffer): Promise<ZipPart[]> {
  const z = await JSZip.loadAsync(zip);
  const out: ZipPart[] = [];
  for (const f of Object.values(z.files)) if (!f.dir) out.push(deflated(f.name, await f.async('nodebuffer')));
  return out;
}

/**
 * The fields a local header and a directory record share (version needed, flags, method, time,
 * date, CRC, sizes, name length), from `at`: 4 in a local header, 6 in a directory record.
 */
function sharedFields(p: ZipPart, nameLength: number, out: Buffer, at: number): void {
  out.writeUInt16LE(20, at);
  out.writeUInt16LE(p.method, at + 4);
  out.writeUInt32LE(p.crc, at + 10);
  out.writeUInt32LE(p.stored.length, at + 14);
  out.writeUInt32LE(p.size, at + 18);
  out.writeUInt16LE(nameLength, at + 22);
}

/** The local entries of `parts` followed by their central directory, and where that begins. */
export function archive(parts: ZipPart[]): { locals: Buffer; directory: Buffer; directoryAt: number } {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let at = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    sharedFields(p, name.length, local, 4);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4); // version made by
    sharedFields(p, name.length, dir, 6);
    dir.writeUInt32LE(at, 42);
    locals.push(local, name, p.stored);
    central.push(dir, name);
    at += 30 + name.length + p.stored.length;
  }
  return { locals: Buffer.concat(locals), directory: Buffer.concat(central), directoryAt: at };
}

/** The end-of-central-directory record. */
export function endRecord(count: number, directorySize: number, directoryAt: number): Buffer {
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(count, 8);
  e.writeUInt16LE(count, 10);
  e.writeUInt32LE(directorySize, 12);
  e.writeUInt32LE(directoryAt, 16);
  return e;
}

/** A plain zip of `parts`. */
export function zipOf(parts: ZipPart[]): Buffer {
  const a = archive(parts);
  return Buffer.concat([a.locals, a.directory, endRecord(parts.length, a.directory.length, a.directoryAt)]);
}

/**
 * A zip whose end record points at two directories: read at the offset it states, a harmless
 * `decoy` (the same number of entries); read the way JSZip does when the record's offsets leave
 * bytes unaccounted for before the directory (it takes them for data prepended to the archive and
 * shifts every offset by them), `hidden`. The file is the decoy's entries, padding, the decoy's
 * directory, then the hidden archive and the end record.
 */
export function twoFacedZip(decoy: ZipPart[], hidden: ZipPart[]): Buffer {
  if (decoy.length !== hidden.length) throw new Error('decoy and hidden need the same number of entries');
  const h = archive(hidden);
  // The decoy's directory must sit where the hidden archive's directory offset points in the file.
  const d = archive(decoy);
  if (d.locals.length > h.directoryAt) throw new Error('the decoy is larger than the hidden entries');
  const prefix = Buffer.concat([d.locals, Buffer.alloc(h.directoryAt - d.locals.length), d.directory]);
  return Buffer.concat([prefix, h.locals, h.directory, endRecord(hidden.length, h.directory.length, h.directoryAt)]);
}
