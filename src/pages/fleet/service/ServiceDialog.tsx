import { DatePicker, Form, Modal, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { applyFieldErrors } from '../../../components/form/fieldErrors';
import type { Row } from '../../../components/schema/pageContract';
import { reportFailure } from '../../../services/http/config';
import { failureOf } from '../../../services/http/failureOf';
import { feedback } from '../../../services/http/feedback';
import { useT } from '../../../session/useT';
import { editService, type ServiceEntity } from '../../../services/fleet';
import { localToday, proposedEnd } from './serviceDates';

interface Props {
  entity: ServiceEntity;
  row: Row;
  /** What the row is called on screen (licence, terminal number). */
  name: string;
  onClose: () => void;
  onSaved: () => void;
}

interface Values {
  serviceStart?: Dayjs | null;
  serviceEnd?: Dayjs | null;
}

const ISO = 'YYYY-MM-DD';
const FIELDS = ['serviceStart', 'serviceEnd'];
const day = (v: unknown) => (typeof v === 'string' && v ? dayjs(v.slice(0, 10), ISO) : null);

/**
 * Service renewal (SPEC §7 `editService`): a new service end (and optionally start) for one vehicle
 * or terminal. The end proposed is a year on; the server's refusals land on their fields.
 */
export default function ServiceDialog({ entity, row, name, onClose, onSaved }: Props) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const label = (field: string) => t(['entity', entity, 'fields', field].join('.'));

  const save = async (v: Values) => {
    setSaving(true);
    try {
      const serviceEnd = v.serviceEnd!.format(ISO);
      await editService(entity, row.id, { serviceStart: v.serviceStart ? v.serviceStart.format(ISO) : null, serviceEnd });
      void feedback().message.success(t('console.vehicle.serviceRenewed', { name, date: serviceEnd }));
      onSaved();
      onClose();
    } catch (e) {
      const f = failureOf(e);
      if (f.status === 400 && f.errors.length) {
        const other = applyFieldErrors(form, f.errors, FIELDS);
        if (other.length) void feedback().message.error(other[0].message);
      } else reportFailure(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('console.vehicle.serviceTitle', { name })}
      okText={t('console.vehicle.renewService')}
      cancelText={t('console.sheet.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('console.vehicle.serviceCurrent', { end: typeof row.serviceEnd === 'string' ? row.serviceEnd : t('console.vehicle.none') })}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => void save(v)}
        initialValues={{ serviceStart: day(row.serviceStart), serviceEnd: day(proposedEnd(row.serviceEnd, localToday())) }}
      >
        <Form.Item name="serviceStart" label={label('serviceStart')}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="serviceEnd"
          label={label('serviceEnd')}
          rules={[{ required: true, message: t('validation.required', { field: label('serviceEnd') }) }]}
        >
          <DatePicker style={{ width: '100%' }} data-testid="service-end" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
