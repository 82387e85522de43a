import { useState } from 'react';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { useT } from '../../../session/useT';
import RegistrationDialog from './RegistrationDialog';

/** The "registration" row action of a terminal: its state, bound hardware, refused attempts, and the reset. */
export default function RegistrationAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <a
        onClick={() => setOpen(true)}
        data-testid="row-registration"
        title={t('terminalRegistration.title', { terminalNo: String(row.terminalNo ?? '') })}
      >
        {t('terminalRegistration.action')}
      </a>
      {open && <RegistrationDialog row={row} onClose={() => setOpen(false)} onReset={ctx.reload} />}
    </>
  );
}
