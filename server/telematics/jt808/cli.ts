/**
 * jt808 decode [--tz=<minutes>] [--no-checksum] [<hex frame> ...]
 *
 * Decodes frames given as hex (as on the wire, with their 7e flags; spaces tolerated), from the
 * arguments or, when there are none, one per line from standard input. Prints one JSON object per
 * frame; an undecodable frame prints {"error": ...} and the exit code is 1 at the end.
 */

import { createInterface } from 'node:readline';
import type { DecodeOptions } from './decode';
import { TextDecoder808 } from './decodeText';

const USAGE = 'usage: jt808 decode [--tz=<minutes east of UTC, default 480>] [--no-checksum] [<hex frame> ...]\n';

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'decode') {
    process.stderr.write(USAGE);
    return 2;
  }
  const opts: DecodeOptions = {};
  const frames: string[] = [];
  for (const arg of rest) {
    if (arg === '--no-checksum') opts.verifyChecksum = false;
    else if (arg.startsWith('--tz=')) {
      const tz = Number(arg.slice(5));
      if (!Number.isInteger(tz) || Math.abs(tz) > 14 * 60) {
        process.stderr.write(`bad --tz: ${arg}\n${USAGE}`);
        return 2;
      }
      opts.tzOffsetMinutes = tz;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      return 0;
    } else frames.push(arg);
  }
  const decoder = new TextDecoder808(opts);
  if (frames.length > 0) {
    for (const f of frames) process.stdout.write(`${JSON.stringify(decoder.decode(f))}\n`);
  } else {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      if (line.trim() === '') continue;
      process.stdout.write(`${JSON.stringify(decoder.decode(line))}\n`);
    }
  }
  return decoder.failed ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
