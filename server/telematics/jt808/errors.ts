/**
 * Typed errors of the JT/T 808 codec. A malformed frame only ever raises
 * Jt808DecodeError, so the gateway can drop and log it with a stable code.
 */

export type Jt808ErrorCode =
  | 'BAD_CHECKSUM' // XOR checksum does not match
  | 'TRUNCATED' // fewer bytes than the header or the body length announce
  | 'BAD_ESCAPE' // 0x7d not followed by 0x01 or 0x02
  | 'TOO_LONG' // frame above MAX_FRAME_BYTES
  | 'BAD_LENGTH' // more bytes than the header announces, or no header layout fits
  | 'BAD_FLAG' // missing or stray 0x7e delimiter
  | 'BAD_PACKET' // subpackage count/index out of range
  | 'BAD_BODY' // body too short or inconsistent for its message id
  | 'BAD_HEX'; // CLI input is not hex

/** An error of the codec: its text starts with the code, which callers branch on. */
abstract class Jt808CodedError<C extends string> extends Error {
  readonly code: C;

  constructor(code: C, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

export class Jt808DecodeError extends Jt808CodedError<Jt808ErrorCode> {
  override readonly name = 'Jt808DecodeError';
}

export type Jt808EncodeErrorCode = 'BAD_FIELD' | 'TOO_LONG';

/** Raised by encoders when a field does not fit its wire format (a programming error, not input data). */
export class Jt808EncodeError extends Jt808CodedError<Jt808EncodeErrorCode> {
  override readonly name = 'Jt808EncodeError';
}

export function isJt808DecodeError(e: unknown): e is Jt808DecodeError {
  return e instanceof Jt808DecodeError;
}
