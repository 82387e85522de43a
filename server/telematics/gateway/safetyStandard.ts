/**
 * Which active safety standard a terminal speaks, per terminal model, as the checksum policy is
 * chosen (checksumPolicy.ts): 苏标 T/JSATL12 by default, or a provincial variant (粤标) whose alarm
 * identification is 40 bytes instead of 16. It decides how the 0x0200 items 0x64–0x67 are read, the
 * identification the platform sends in 0x9208, and how the attachment link's 0x1210 is read.
 */

import { decodeSafetyItem, SAFETY_ITEM_IDS, SAFETY_STANDARDS, type SafetyStandard } from '../jt808/messages/activeSafety';
import type { LocationExtras } from '../jt808/codec';

export interface SafetyStandardPolicy {
  /** For models not listed, and terminals whose model is not known. */
  default: SafetyStandard;
  /** Registered model (0x0100) → standard. */
  models: Record<string, SafetyStandard>;
}

export const DEFAULT_SAFETY_POLICY: SafetyStandardPolicy = { default: 'jsatl12', models: {} };

export function safetyStandardOf(policy: SafetyStandardPolicy, model: string | null): SafetyStandard {
  return (model !== null && Object.hasOwn(policy.models, model) ? policy.models[model] : undefined) ?? policy.default;
}

/** Whether any terminal may speak another standard than the codec's 苏标 (then the session looks its model up). */
export const needsModel = (policy: SafetyStandardPolicy): boolean =>
  policy.default !== 'jsatl12' || Object.values(policy.models).some((s) => s !== 'jsatl12');

function standard(name: string, value: string): SafetyStandard {
  if (!(SAFETY_STANDARDS as readonly string[]).includes(value))
    throw new Error(`${name}: "${value}" must be one of ${SAFETY_STANDARDS.join(', ')}`);
  return value as SafetyStandard; // checked just above
}

/** JT808_SAFETY_STANDARD (jsatl12 | guangdong) and JT808_SAFETY_STANDARD_MODELS (`model=guangdong,…`). */
export function safetyPolicyFromEnv(defaultValue: string | undefined, models: string | undefined): SafetyStandardPolicy {
  const policy: SafetyStandardPolicy = { default: defaultValue ? standard('JT808_SAFETY_STANDARD', defaultValue) : 'jsatl12', models: {} };
  for (const entry of (models ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.lastIndexOf('=');
    if (eq <= 0) throw new Error(`JT808_SAFETY_STANDARD_MODELS: "${entry}" must be model=standard`);
    policy.models[entry.slice(0, eq).trim()] = standard('JT808_SAFETY_STANDARD_MODELS', entry.slice(eq + 1).trim());
  }
  return policy;
}

/**
 * The extras as a terminal of this standard sent them: the codec reads 苏标, so under another
 * standard the safety items it kept as hex (they did not fit 苏标) are decoded by that standard's
 * layout. Returns the same object when nothing changes.
 */
export function readSafetyItems(extras: LocationExtras, std: SafetyStandard, tz: number): LocationExtras {
  if (std === 'jsatl12' || !extras.unknown?.some((u) => SAFETY_ITEM_IDS.includes(u.id))) return extras;
  const out: LocationExtras = { ...extras };
  const unknown = [];
  for (const u of extras.unknown) {
    const bytes = Buffer.from(u.hex, 'hex');
    const v = SAFETY_ITEM_IDS.includes(u.id) ? decodeSafetyItem(u.id, bytes, 0, bytes.length, std, tz) : undefined;
    if (v) Object.assign(out, v);
    else unknown.push(u);
  }
  if (unknown.length) out.unknown = unknown;
  else delete out.unknown;
  return out;
}
