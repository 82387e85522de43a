import { Popconfirm } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import DialogAction from '../../../components/schema/DialogAction';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { feedback } from '../../../services/http/feedback';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import {
  ASSIGN_CODE,
  assignDriver,
  SERVICE_CODE,
  searchAppAccounts,
  searchDrivers,
  setVehicleOwner,
  unbindTerminal,
  vehicleOwner,
  type PickOption,
} from '../../../services/fleet';
import ServiceAction from '../service/ServiceAction';
import BindDialog from './BindDialog';
import PickDialog from './PickDialog';

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
    <Popconfirm
      title={t('console.vehicle.unbindConfirm', names)}
      okText={t('console.vehicle.unbind')}
      cancelText={t('console.sheet.cancel')}
      onConfirm={unbind}
    >
      <a data-testid="row-unbind" title={t('console.vehicle.unbind')}>
        {t('console.vehicle.unbindAction')}
      </a>
    </Popconfirm>
  );
}

function ReplaceTerminalAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  return (
    <DialogAction
      testId="row-replace-terminal"
      title={t('console.vehicle.replace')}
      label={t('console.vehicle.replaceAction')}
      dialog={(close) => <BindDialog row={row} mode="replace" onClose={close} onBound={ctx.reload} />}
    />
  );
}

/** The vehicle's driver: one of the vehicle's organisation (and below), or none. */
function DriverAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const licence = String(row.licence ?? '');
  const current = typeof row.driverId === 'number' ? { value: row.driverId, label: String(row.driverName ?? row.driverId) } : null;
  const save = async (driverId: number) => {
    await assignDriver(row.id, driverId);
    void feedback().message.success(t(driverId ? 'console.vehicle.driverAssigned' : 'console.vehicle.driverCleared', { licence }));
    ctx.reload();
  };
  return (
    <DialogAction
      testId="row-driver"
      title={t('console.vehicle.driverTitle', { licence })}
      label={t('console.vehicle.driverAction')}
      dialog={(close) => (
        <PickDialog
          title={t('console.vehicle.driverTitle', { licence })}
          hint={t('console.vehicle.driverHint', { org: String(row.orgName ?? '') })}
          placeholder={t('console.vehicle.driverSearch')}
          testId="pick-driver"
          current={current}
          search={(q) => searchDrivers(Number(row.orgId), q)}
          save={save}
          clearLabel={t('console.vehicle.driverClear')}
          clearConfirm={t('console.vehicle.driverClearConfirm', { licence, driver: current?.label ?? '' })}
          onClose={close}
        />
      )}
    />
  );
}

/**
 * The vehicle's app-account owner (SPEC: a vehicle bound to a member): an App account of the
 * member's subtree, or none. The dialog opens on the owner as the server has it now.
 */
function OwnerAction({ row }: { row: Row }) {
  const t = useT();
  const licence = String(row.licence ?? '');
  return (
    <DialogAction
      testId="row-owner"
      title={t('console.vehicle.ownerTitle', { licence })}
      label={t('console.vehicle.ownerAction')}
      dialog={(close) => <OwnerDialog vehicleId={row.id} licence={licence} onClose={close} />}
    />
  );
}

function OwnerDialog({ vehicleId, licence, onClose }: { vehicleId: number; licence: string; onClose: () => void }) {
  const t = useT();
  // undefined while asking; the picker opens once the current owner (or none) is known.
  const [owner, setOwner] = useState<PickOption | null | undefined>(undefined);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    let live = true;
    vehicleOwner(vehicleId).then(
      (o) => live && setOwner(o),
      () => live && closeRef.current(), // the request config showed why
    );
    return () => {
      live = false;
    };
  }, [vehicleId]);
  if (owner === undefined) return null;
  const save = async (memberId: number) => {
    await setVehicleOwner(vehicleId, memberId);
    void feedback().message.success(t(memberId ? 'console.vehicle.ownerSet' : 'console.vehicle.ownerCleared', { licence }));
  };
  return (
    <PickDialog
      title={t('console.vehicle.ownerTitle', { licence })}
      hint={t('console.vehicle.ownerHint')}
      placeholder={t('console.vehicle.ownerSearch')}
      testId="pick-owner"
      current={owner}
      search={searchAppAccounts}
      save={save}
      clearLabel={t('console.vehicle.ownerClear')}
      clearConfirm={t('console.vehicle.ownerClearConfirm', { licence })}
      onClose={onClose}
    />
  );
}

/**
 * A vehicle row's own actions: bind a terminal, or unbind or replace it (confirmed); renew its
 * service; assign its driver; set its app-account owner.
 */
export function vehicleRowActions(row: Row, ctx: EntityPageContext): ReactNode[] {
  const terminal = row.terminalId
    ? [
        <Permission key="unbind" code="vehicle-unbind">
          <UnbindAction row={row} ctx={ctx} />
        </Permission>,
        <Permission key="replace" code={ASSIGN_CODE.replaceTerminal}>
          <ReplaceTerminalAction row={row} ctx={ctx} />
        </Permission>,
      ]
    : [
        <Permission key="bind" code="vehicle-bind">
          <BindAction row={row} ctx={ctx} />
        </Permission>,
      ];
  return [
    ...terminal,
    <Permission key="service" code={SERVICE_CODE.vehicle}>
      <ServiceAction entity="vehicle" row={row} name={String(row.licence ?? '')} ctx={ctx} />
    </Permission>,
    <Permission key="driver" code={ASSIGN_CODE.driver}>
      <DriverAction row={row} ctx={ctx} />
    </Permission>,
    <Permission key="owner" code={ASSIGN_CODE.owner}>
      <OwnerAction row={row} />
    </Permission>,
  ];
}
