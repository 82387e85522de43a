import { Tabs } from 'antd';
import type { ReactNode } from 'react';
import { APPLICATIONS, type Application } from '../../services/passport';
import { useT } from '../../session/useT';
import { APPLICATION_KEYS } from './labels';

/** A passport page kept per application (obd-web, vehicle-app): one tab each, named in the reader's language. */
export default function ApplicationTabs({ testId, page }: { testId: string; page: (application: Application) => ReactNode }) {
  const t = useT();
  return (
    <div data-testid={testId}>
      <Tabs
        items={APPLICATIONS.map((application) => ({
          key: application,
          label: t(APPLICATION_KEYS[application]),
          children: page(application),
        }))}
      />
    </div>
  );
}
