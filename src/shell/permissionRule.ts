/**
 * The permission rule of SPEC.md §5: a single code, a comma-separated list (all required) or an
 * array (any one).
 */
export type PermissionRequirement = string | readonly string[];

export function isGranted(granted: ReadonlySet<string>, required: PermissionRequirement): boolean {
  if (Array.isArray(required)) return required.some((code) => granted.has(code.trim()));
  const codes = (required as string)
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  return codes.length > 0 && codes.every((code) => granted.has(code));
}
