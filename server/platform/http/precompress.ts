import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** What is worth compressing: text assets a browser asks with Accept-Encoding. */
const COMPRESSIBLE = /\.(?:js|css|html|json|svg|txt|map)$/;
/** Below this a compressed copy saves less than its own overhead. */
const MIN_BYTES = 1024;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const ENCODERS: ReadonlyArray<readonly [string, (data: Buffer) => Promise<Buffer>]> = [
  ['.gz', (data) => gzip(data, { level: 9 })],
  // Brotli at its best for files compressed once and served for a year.
  [
    '.br',
    (data) => brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  ],
];

function* assetsUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* assetsUnder(full);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/** A sibling as new as its original is kept; an older one (a rebuild in place) is made again. */
const fresh = (file: string, original: fs.Stats) => (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1) >= original.mtimeMs;

/**
 * Writes `.gz` and `.br` beside every text asset of the built console, for @fastify/static's
 * `preCompressed` to serve: the console's JS is over a megabyte raw and a third of that compressed.
 * Each copy is written to a temporary name and renamed, so a server reading the folder never sends
 * half a file; zlib's async calls run off the event loop. Answers how many copies it wrote.
 */
export async function precompress(dir: string): Promise<number> {
  let written = 0;
  for (const file of assetsUnder(dir)) {
    const stat = fs.statSync(file);
    if (stat.size < MIN_BYTES) continue;
    let data: Buffer | undefined;
    for (const [ext, encode] of ENCODERS) {
      const target = file + ext;
      if (fresh(target, stat)) continue;
      data ??= fs.readFileSync(file);
      const temp = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(temp, await encode(data));
      fs.renameSync(temp, target);
      written++;
    }
  }
  return written;
}
