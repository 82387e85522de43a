import { useState } from 'react';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { useT } from '../../../shell/useT';
import type { ServiceEntity } from './fleetCalls';
import ServiceDialog from './ServiceDialog';

/** The "service renewal" row action and its dialog (guarded by the caller). */
export default function ServiceAction({ entity, row, name, ctx }: { entity: ServiceEntity; row: Row; name: string; ctx: EntityPageContext }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <a onClick={() => setOpen(true)} data-testid="row-service" title={t('console.vehicle.renewService')}>
        {t('console.vehicle.renewAction')}
      </a>
      {open && <ServiceDialog entity={entity} row={row} name={name} onClose={() => setOpen(false)} onSaved={ctx.reload} />}
    </>
  );
}
