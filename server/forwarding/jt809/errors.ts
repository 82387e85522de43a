/**
 * Typed errors of the JT/T 809 codec. A malformed frame only ever raises Jt809DecodeError, whose
 * text starts with a stable code, so a link can drop it, count it and go on.
 */

export type Jt809ErrorCode =
  | 'BAD_FLAG' // no 0x5b head or 0x5d end, or a stray flag inside
  | 'BAD_ESCAPE' // 0x5a or 0x5e not followed by 0x01 or 0x02
  | 'TRUNCATED' // fewer bytes than a header and a CRC
  | 'BAD_LENGTH' // MSG_LENGTH differs from the bytes received
  | 'BAD_CRC' // CRC-CCITT does not match
  | 'NO_KEY' // an encrypted body and no M1/IA1/IC1 to decrypt it
  | 'TOO_LONG' // a frame above MAX_FRAME_BYTES
  | 'BAD_BODY'; // a body too short or inconsistent for its message id

export class Jt809DecodeError extends Error {
  override readonly name = 'Jt809DecodeError';
  readonly code: Jt809ErrorCode;

  constructor(code: Jt809ErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

/** Raised by encoders when a field does not fit its wire format (a programming error, not input data). */
export class Jt809EncodeError extends Error {
  override readonly name = 'Jt809EncodeError';
}
