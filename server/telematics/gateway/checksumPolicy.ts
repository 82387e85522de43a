/**
 * What the gateway does with a frame whose XOR checksum does not match, per terminal model:
 * sloppy firmware of some models computes it wrong on every frame (Traccar never checks it), so
 * those are accepted and flagged; for the rest a bad checksum means damaged bytes, refused as a
 * message error so the terminal sends the message again.
 */

export type ChecksumAction = 'accept' | 'refuse';

export interface ChecksumPolicy {
  /** For models not listed, and terminals whose model is not known yet. */
  default: ChecksumAction;
  /** Registered model (0x0100) → action. */
  models: Record<string, ChecksumAction>;
}

export const DEFAULT_CHECKSUM_POLICY: ChecksumPolicy = { default: 'refuse', models: {} };

export function checksumAction(policy: ChecksumPolicy, model: string | null): ChecksumAction {
  return (model !== null && Object.hasOwn(policy.models, model) ? policy.models[model] : undefined) ?? policy.default;
}

function action(name: string, value: string): ChecksumAction {
  if (value !== 'accept' && value !== 'refuse') throw new Error(`${name}: "${value}" must be accept or refuse`);
  return value;
}

/**
 * JT808_BAD_CHECKSUM (accept | refuse, default refuse) and JT808_BAD_CHECKSUM_MODELS, a comma list
 * of model=action (`BSJ-A6=accept,C5=refuse`).
 */
export function checksumPolicyFromEnv(defaultValue: string | undefined, models: string | undefined): ChecksumPolicy {
  const policy: ChecksumPolicy = { default: defaultValue ? action('JT808_BAD_CHECKSUM', defaultValue) : 'refuse', models: {} };
  for (const entry of (models ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.lastIndexOf('=');
    if (eq <= 0) throw new Error(`JT808_BAD_CHECKSUM_MODELS: "${entry}" must be model=accept or model=refuse`);
    policy.models[entry.slice(0, eq).trim()] = action('JT808_BAD_CHECKSUM_MODELS', entry.slice(eq + 1).trim());
  }
  return policy;
}
