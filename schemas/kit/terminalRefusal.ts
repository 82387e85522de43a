/**
 * Why the gateway refused a known terminal's registration or authentication (issue 18): the
 * server records these, the console names them (`terminalRegistration.reasons.<reason>`).
 */

export const REFUSAL_MESSAGES = ['register', 'auth'] as const;
export type RefusalMessage = (typeof REFUSAL_MESSAGES)[number];

export const REFUSAL_REASONS = [
  // 0x0100 of a registered terminal: the same hardware, or other hardware.
  'alreadyRegistered',
  'hardwareMismatch',
  // 0x0102
  'notRegistered',
  'badCode',
  'imeiMismatch',
  'imeiMissing',
  'liveSessionElsewhere',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
