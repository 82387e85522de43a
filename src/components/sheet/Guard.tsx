import type { ReactNode } from 'react';
import Permission from '../../shell/Permission';

/** `NONE` (schemas/README.md): any signed-in member may; other codes go through `<Permission>`. */
export default function Guard({ code, children }: { code: string; children: ReactNode }) {
  return code === 'NONE' ? <>{children}</> : <Permission code={code}>{children}</Permission>;
}
