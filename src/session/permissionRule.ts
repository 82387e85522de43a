import { NONE } from '../../schemas/kit/authority';

/**
 * The permission rule of SPEC.md §5: a single code, a comma-separated list (all required) or an
 * array (any one). `NONE` asks for no grant, as on the server.
 */
export type PermissionRequirement = string | readonly string[];

const holds = (granted: ReadonlySet<string>, code: string) => code === NONE || granted.has(code);

export function isGranted(granted: ReadonlySet<string>, required: PermissionRequirement): boolean {
  if (Array.isArray(required)) return required.some((code) => holds(granted, code.trim()));
  const codes = (required as string)
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  return codes.length > 0 && codes.every((code) => holds(granted, code));
}
