import { Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import DialogAction from '../../../components/schema/DialogAction';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { feedback } from '../../../services/http/feedback';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import { SERVICE_CODE, unbindTerminal } from '../../../services/fleet';
import ServiceAction from '../service/ServiceAction';
import BindDialog from './BindDialog';

function BindAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  return (
    <DialogAction
      testId="row-bind"
      title={t('console.vehicle.bind')}
      label={t('console.vehicle.bindAction')}
      dialog={(close) => <BindDialog row={row} onClose={close} onBound={ctx.reload} />}
    />
  );
}

function UnbindAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const names = { licence: String(row.licence ?? ''), terminalNo: String(row.terminalNo ?? '') };
  const unbind = async () => {
    try {
      await unbindTerminal(row.id);
      void feedback().message.success(t('console.vehicle.unbound', names));
      ctx.reload();
    } catch {
      // the request config showed the refusal
    }
  };
  return (
    <Popconfirm title={t('console.vehicle.unbindConfirm', names)} okText={t('console.vehicle.unbind')} cancelText={t('console.sheet.cancel')} onConfirm={unbind}>
      <a data-testid="row-unbind" title={t('console.vehicle.unbind')}>
        {t('console.vehicle.unbindAction')}
      </a>
    </Popconfirm>
  );
}

/** A vehicle row's own actions: bind a terminal, or unbind it (confirmed); renew its service. */
export function vehicleRowActions(row: Row, ctx: EntityPageContext): ReactNode[] {
  return [
    row.terminalId ? (
      <Permission key="unbind" code="vehicle-unbind">
        <UnbindAction row={row} ctx={ctx} />
      </Permission>
    ) : (
      <Permission key="bind" code="vehicle-bind">
        <BindAction row={row} ctx={ctx} />
      </Permission>
    ),
    <Permission key="service" code={SERVICE_CODE.vehicle}>
      <ServiceAction entity="vehicle" row={row} name={String(row.licence ?? '')} ctx={ctx} />
    </Permission>,
  ];
}
