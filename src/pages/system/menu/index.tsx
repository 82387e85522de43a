import { Tabs } from 'antd';
import { APPLICATION_KEYS } from '../../../components/system/labels';
import { APPLICATIONS } from '../../../services/passport';
import { useT } from '../../../shell/useT';
import ResourceTable from './ResourceTable';

/** Menus (SPEC.md §3 menu resources): the resource tree of obd-web and of vehicle-app, one tab each. */
export default function MenuPage() {
  const t = useT();
  return (
    <div data-testid="menu-page">
      <Tabs items={APPLICATIONS.map((application) => ({ key: application, label: t(APPLICATION_KEYS[application]), children: <ResourceTable application={application} /> }))} />
    </div>
  );
}
