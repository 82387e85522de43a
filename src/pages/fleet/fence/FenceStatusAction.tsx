import { Popconfirm } from 'antd';
import { useState } from 'react';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { feedback } from '../../../services/http/feedback';
import { openFence, stopFence } from '../../../services/fences';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';

/** The action codes of SPEC §4's separate calls (server/seed/menu.ts). */
export const FENCE_OPEN_CODE = 'fence-open';
export const FENCE_STOP_CODE = 'fence-stop';

/**
 * A fence's open or stop row action, whichever its status allows, behind its own code; asks first,
 * since stopping ends the fence's alarms and opening starts them.
 */
export default function FenceStatusAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const open = row.status === 'open';
  const name = String(row.name ?? '');
  const act = async () => {
    setBusy(true);
    try {
      await (open ? stopFence : openFence)(Number(row.id));
      void feedback().message.success(t(open ? 'console.fence.stopped' : 'console.fence.opened', { name }));
      ctx.reload();
    } catch {
      // the request config showed the refusal (a district fence without its boundary, say)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Permission code={open ? FENCE_STOP_CODE : FENCE_OPEN_CODE}>
      <Popconfirm title={t(open ? 'console.fence.stopConfirm' : 'console.fence.openConfirm', { name })} onConfirm={act}>
        <a data-testid={open ? 'row-fence-stop' : 'row-fence-open'} aria-disabled={busy}>
          {t(open ? 'console.fence.stop' : 'console.fence.open')}
        </a>
      </Popconfirm>
    </Permission>
  );
}
