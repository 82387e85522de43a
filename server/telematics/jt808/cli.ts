/**
 * jt808 decode [--tz=<minutes>] [--no-checksum] [<hex frame> ...]
 *
 * Decodes frames given as hex (as on the wire, with their 7e flags; spaces tolerated), from the
 * arguments or, when there are none, one per line from standard input. Prints one JSON object per
 * frame; an undecodable frame prints {"error": ...} and the exit code is 1 at the end.
 */

import { createInterface } from 'node:readline';
import { DEFAULT_TZ_OFFSET_MINUTES } from './constants';
import { decodeFrame, type DecodeOptions } from './decode';
import { Jt808DecodeError } from './errors';
import { SubpackageAssembler } from './subpackage';
import { errorToJson, messageToJson } from './toJson';

const USAGE = 'usage: jt808 decode [--tz=<minutes east of UTC, default 480>] [--no-checksum] [<hex frame> ...]\n';

interface CliState {
  opts: DecodeOptions;
  assembler: SubpackageAssembler;
  failed: boolean;
}

function decodeLine(line: string, state: CliState): string {
  const text = line.replace(/\s+/g, '').replace(/^0x/i, '');
  try {
    if (text.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(text)) {
      throw new Jt808DecodeError('BAD_HEX', `not a hex frame: ${JSON.stringify(line.trim().slice(0, 80))}`);
    }
    const msg = decodeFrame(Buffer.from(text, 'hex'), state.opts);
    if (msg.opaque === 'fragment') {
      const whole = state.assembler.push(msg);
      if (whole) return JSON.stringify({ ...messageToJson(whole), reassembledFrom: msg.packet?.count ?? 0 });
    }
    return JSON.stringify(messageToJson(msg));
  } catch (e) {
    state.failed = true;
    return JSON.stringify(errorToJson(e));
  }
}

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
  const state: CliState = {
    opts,
    assembler: new SubpackageAssembler({ tzOffsetMinutes: opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES }),
    failed: false,
  };
  if (frames.length > 0) {
    for (const f of frames) process.stdout.write(`${decodeLine(f, state)}\n`);
  } else {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of rl) {
      if (line.trim() === '') continue;
      process.stdout.write(`${decodeLine(line, state)}\n`);
    }
  }
  return state.failed ? 1 : 0;
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
