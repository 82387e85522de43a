import { Button, Form, InputNumber, Modal, Space, Table, Tag, theme, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState, type HTMLAttributes } from 'react';
import type { Page } from '../../../../schemas/kit/entity';
import { enumLabelKey, fieldLabelKey } from '../../../components/schema/labels';
import { useT } from '../../../session/useT';
import { queryLicenceExpiries, WITHIN_DAYS, type LicenceExpiry } from '../../../services/fleet';

const PAGE_SIZE = 10;

interface Shown {
  withinDays: number;
  pageIndex: number;
  pageSize: number;
}

/**
 * The licence-expiry list a dispatcher works from: drivers whose licence has expired (rows in red)
 * or expires within the days asked for, by expiry, with the days left and the vehicles they drive.
 */
export default function LicenceExpiryDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ withinDays: number }>();
  const [shown, setShown] = useState<Shown>({ withinDays: WITHIN_DAYS.default, pageIndex: 1, pageSize: PAGE_SIZE });
  const [page, setPage] = useState<Page<LicenceExpiry> | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (q: Shown) => {
    setLoading(true);
    try {
      setPage(await queryLicenceExpiries(q));
      setShown(q);
    } catch {
      // the request layer showed the failure; the table keeps its last rows
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => void load(shown), []); // eslint-disable-line react-hooks/exhaustive-deps -- the first page once; later pages on demand

  const rangeRule = {
    required: true,
    type: 'integer' as const,
    min: WITHIN_DAYS.min,
    max: WITHIN_DAYS.max,
    message: t('console.driver.withinDaysRange'),
  };
  const columns: ColumnsType<LicenceExpiry> = [
    { key: 'name', title: t(fieldLabelKey('driver', 'name')), dataIndex: 'name' },
    { key: 'mobile', title: t(fieldLabelKey('driver', 'mobile')), dataIndex: 'mobile' },
    { key: 'orgName', title: t('common.fields.orgName'), dataIndex: 'orgName' },
    { key: 'licenseNo', title: t(fieldLabelKey('driver', 'licenseNo')), render: (_, r) => r.licenseNo ?? '-' },
    {
      key: 'licenseClass',
      title: t(fieldLabelKey('driver', 'licenseClass')),
      render: (_, r) => (r.licenseClass ? t(enumLabelKey('driver', 'licenseClass', r.licenseClass)) : '-'),
    },
    {
      key: 'licenseExpire',
      title: t(fieldLabelKey('driver', 'licenseExpire')),
      render: (_, r) => (
        <Space size={4}>
          {r.licenseExpire}
          {r.daysLeft < 0 && <Tag color="error">{t('console.driver.expired')}</Tag>}
          {r.daysLeft === 0 && <Tag color="warning">{t('console.driver.expiresToday')}</Tag>}
        </Space>
      ),
    },
    { key: 'daysLeft', title: t('console.driver.daysLeft'), dataIndex: 'daysLeft', align: 'right' },
    {
      key: 'vehicles',
      title: t('console.driver.vehicles'),
      render: (_, r) =>
        r.vehicles.length ? (
          r.vehicles.map((v) => v.licence).join(', ')
        ) : (
          <Typography.Text type="secondary">{t('console.driver.noVehicle')}</Typography.Text>
        ),
    },
  ];

  return (
    <Modal
      open
      title={t('console.driver.licencesTitle')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('console.driver.close')}</Button>}
      width={1000}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="inline"
        initialValues={{ withinDays: WITHIN_DAYS.default }}
        onFinish={({ withinDays }) => void load({ ...shown, withinDays, pageIndex: 1 })}
        style={{ marginBottom: 8 }}
      >
        <Form.Item name="withinDays" label={t('console.driver.withinDays')} rules={[rangeRule]}>
          <InputNumber min={WITHIN_DAYS.min} max={WITHIN_DAYS.max} precision={0} style={{ width: 120 }} data-testid="licence-within-days" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={loading} data-testid="licence-search">
            {t('console.driver.search')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t('console.driver.withinDaysHint')}</Typography.Paragraph>
      <div data-testid="licence-expiry-table">
        <Table<LicenceExpiry>
          size="small"
          rowKey="id"
          loading={loading}
          columns={columns}
          dataSource={page?.data ?? []}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('console.driver.empty') }}
          // An expired licence: the whole row in red (the same red as an expired service).
          onRow={(r) =>
            r.daysLeft < 0
              ? ({ style: { color: token.colorError }, 'data-testid': 'licence-expired-row' } as HTMLAttributes<HTMLElement>)
              : {}
          }
          pagination={{
            current: shown.pageIndex,
            pageSize: shown.pageSize,
            total: page?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('console.schema.total', { total }),
            onChange: (pageIndex, pageSize) => void load({ ...shown, pageIndex: pageSize === shown.pageSize ? pageIndex : 1, pageSize }),
          }}
        />
      </div>
    </Modal>
  );
}
