import DialogAction from '../../../components/schema/DialogAction';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { useT } from '../../../session/useT';
import type { ServiceEntity } from '../../../services/fleet';
import ServiceDialog from './ServiceDialog';

/** The "service renewal" row action and its dialog (guarded by the caller). */
export default function ServiceAction({
  entity,
  row,
  name,
  ctx,
}: {
  entity: ServiceEntity;
  row: Row;
  name: string;
  ctx: EntityPageContext;
}) {
  const t = useT();
  return (
    <DialogAction
      testId="row-service"
      title={t('console.vehicle.renewService')}
      label={t('console.vehicle.renewAction')}
      dialog={(close) => <ServiceDialog entity={entity} row={row} name={name} onClose={close} onSaved={ctx.reload} />}
    />
  );
}
