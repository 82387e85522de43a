import { DEFAULT_TZ_OFFSET_MINUTES } from './constants';
import { decodeFrame, type DecodeOptions } from './decode';
import { Jt808DecodeError } from './errors';
import { SubpackageAssembler } from './subpackage';
import { errorToJson, messageToJson, type JsonMessage } from './toJson';

/** Decodes hex frames one at a time, reassembling subpackages across them (CLI and console page). */
export class TextDecoder808 {
  private readonly assembler: SubpackageAssembler;
  failed = false;

  constructor(private readonly opts: DecodeOptions = {}) {
    this.assembler = new SubpackageAssembler({ tzOffsetMinutes: opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES });
  }

  /** One frame as written (with its 7e flags; spaces and a 0x prefix tolerated) → its JSON, or {error}. */
  decode(line: string): JsonMessage | { error: string; code?: string } {
    const text = line.replace(/\s+/g, '').replace(/^0x/i, '');
    try {
      if (text.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(text)) {
        throw new Jt808DecodeError('BAD_HEX', `not a hex frame: ${JSON.stringify(line.trim().slice(0, 80))}`);
      }
      const msg = decodeFrame(Buffer.from(text, 'hex'), this.opts);
      if (msg.opaque === 'fragment') {
        const whole = this.assembler.push(msg);
        if (whole) return { ...messageToJson(whole), reassembledFrom: msg.packet?.count ?? 0 };
      }
      return messageToJson(msg);
    } catch (e) {
      this.failed = true;
      return errorToJson(e);
    }
  }
}
