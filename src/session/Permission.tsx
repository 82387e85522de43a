import type { ReactNode } from 'react';
import { usePermission } from './navigationStore';
import type { PermissionRequirement } from './permissionRule';

/** Renders its children only when the member holds `code` (one code, "a,b" = all, [a, b] = any). */
export default function Permission({ code, children }: { code: PermissionRequirement; children: ReactNode }) {
  return usePermission(code) ? <>{children}</> : null;
}
