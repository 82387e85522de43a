import { ProForm } from '@ant-design/pro-components';
import { Form, Spin, type FormInstance } from 'antd';
import { lazy, Suspense } from 'react';
import { fenceGeometryProblem, type FenceGeometry, type FenceType } from '../../../schemas/kit/fenceGeometry';
import { entityPage } from '../../components/schema/EntityPage';
import { useMapConfig } from '../../components/map/useMapConfig';
import type { MapConfig } from '../../services/location';
import { useT } from '../../session/useT';

import DistrictPicker from './fence/DistrictPicker';
import FenceStatusAction from './fence/FenceStatusAction';
import FenceVehiclesAction from './fence/FenceVehicles';

const FenceEditor = lazy(() => import('./fence/FenceEditor'));

/**
 * The form item's control (it hands its value and onChange to its direct child): the editor of the
 * type, a district picked from the district tree, the other types drawn on the map.
 */
function GeometryInput({
  type,
  config,
  value,
  onChange,
}: {
  type: FenceType;
  config: MapConfig | null;
  value?: FenceGeometry | null;
  onChange?: (g: FenceGeometry | null) => void;
}) {
  if (type === 'district') return <DistrictPicker value={value} onChange={onChange} />;
  if (!config) return <Spin />;
  return (
    <Suspense fallback={<Spin />}>
      <FenceEditor config={config} type={type} value={value} onChange={onChange} />
    </Suspense>
  );
}

/** The dialog's geometry: the map editor of the chosen type, checked by the server's own rule before saving. */
function GeometrySection({ form }: { form: FormInstance }) {
  const t = useT();
  const config = useMapConfig();
  const type = (Form.useWatch('fenceType', form) as FenceType | undefined) ?? 'polygon';
  return (
    <ProForm.Item
      name="geometry"
      label={t('entity.fence.fields.geometry')}
      required
      rules={[
        {
          validator: async (_rule: unknown, value: FenceGeometry | null) => {
            const p = fenceGeometryProblem(type, value);
            if (p) throw new Error(t(p.key, p.params));
          },
        },
      ]}
    >
      <GeometryInput type={type} config={config} />
    </ProForm.Item>
  );
}

/**
 * Geofences (page key `fleet/fence`): the schema page, its dialog drawing the fence on the map
 * (circle, polygon, rectangle, or a route corridor with its width; a new one opens on the fleet)
 * instead of typing coordinates, or, for a district fence, picking the district from the district
 * tree; each row opens or stops its fence and binds it to vehicles or unbinds them.
 */
export default entityPage('fence', {
  formSection: { fields: ['geometry'], render: ({ form }) => <GeometrySection form={form} /> },
  rowActions: (row, ctx) => [<FenceStatusAction key="status" row={row} ctx={ctx} />, <FenceVehiclesAction key="vehicles" row={row} />],
});
