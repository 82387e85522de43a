import { Button, Modal, Popconfirm, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import type { Row } from '../../../components/schema/pageContract';
import RefSelect from '../../../components/schema/RefSelect';
import { feedback } from '../../../services/http/feedback';
import { bindVehicles, fenceLinks, unbindVehicle, type FenceLink } from '../../../services/fences';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';

/** Binding and unbinding vehicles is editing the fence (server/alarmCentre/fenceLinkRoutes.ts). */
export const FENCE_LINK_CODE = 'fence-edit';

/**
 * The vehicles a fence is bound to: listed with when, each unbound on its own (vehicleFence/deleteRel),
 * and more chosen and bound at once. With none bound the fence applies to every vehicle of its
 * organisation's subtree, and the dialog says so.
 */
export function FenceVehiclesDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const t = useT();
  const fenceId = Number(row.id);
  const name = String(row.name ?? '');
  const [links, setLinks] = useState<FenceLink[] | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [binding, setBinding] = useState(false);

  const load = useCallback(async () => {
    try {
      setLinks((await fenceLinks(fenceId)).data);
    } catch {
      setLinks([]); // the request config showed the failure
    }
  }, [fenceId]);
  useEffect(() => {
    void load();
  }, [load]);

  const bind = async () => {
    if (!chosen.length) return;
    setBinding(true);
    try {
      setLinks((await bindVehicles(fenceId, chosen)).data);
      void feedback().message.success(t('console.fence.bound', { count: chosen.length, name }));
      setChosen([]);
    } catch {
      // the request config showed the refusal; the choice stays for another try
    } finally {
      setBinding(false);
    }
  };

  const unbind = async (link: FenceLink) => {
    try {
      await unbindVehicle(link.id);
      await load();
    } catch {
      // the request config showed the refusal
    }
  };

  const columns = [
    { title: t('console.fence.licence'), dataIndex: 'licence', key: 'licence' },
    {
      title: t('console.fence.boundAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
    },
    {
      title: t('console.schema.actions'),
      key: 'actions',
      render: (_: unknown, link: FenceLink) => (
        <Permission code={FENCE_LINK_CODE}>
          <Popconfirm title={t('console.fence.unbindConfirm', { licence: link.licence, name })} onConfirm={() => unbind(link)}>
            <a data-testid="fence-unbind">{t('console.fence.unbind')}</a>
          </Popconfirm>
        </Permission>
      ),
    },
  ];

  return (
    <Modal open title={t('console.fence.vehiclesTitle', { name })} onCancel={onClose} footer={null} width={640} destroyOnClose>
      <div data-testid="fence-vehicles" data-fence-id={fenceId} data-links={links?.length ?? ''}>
        <Permission code={FENCE_LINK_CODE}>
          <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
            <div style={{ flex: 1 }} data-testid="fence-bind-select">
              <RefSelect
                entity="vehicle"
                multiple
                value={chosen}
                onChange={setChosen}
                placeholder={t('console.fence.bindPlaceholder')}
                style={{ width: '100%' }}
              />
            </div>
            <Button type="primary" onClick={bind} loading={binding} disabled={!chosen.length} data-testid="fence-bind">
              {t('console.fence.bind')}
            </Button>
          </Space.Compact>
        </Permission>
        <Typography.Paragraph type="secondary" data-testid="fence-vehicles-scope">
          {t(links?.length ? 'console.fence.boundOnly' : 'console.fence.boundNone')}
        </Typography.Paragraph>
        <Table<FenceLink>
          rowKey="id"
          size="small"
          loading={links === null}
          dataSource={links ?? []}
          columns={columns}
          pagination={{ pageSize: 10 }}
        />
      </div>
    </Modal>
  );
}

/** The "vehicles" row action of a fence: opens the dialog above. */
export default function FenceVehiclesAction({ row }: { row: Row }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <a onClick={() => setOpen(true)} data-testid="row-fence-vehicles">
        {t('console.fence.vehicles')}
      </a>
      {open && <FenceVehiclesDialog row={row} onClose={() => setOpen(false)} />}
    </>
  );
}
