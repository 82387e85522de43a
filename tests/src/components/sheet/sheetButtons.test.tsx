import { IntlProvider as UntypedIntlProvider } from '@umijs/max';
import { act, render, screen } from '@testing-library/react';
import type { ComponentType, ReactNode } from 'react';
import { entities } from '../../../../schemas/generated/registry';
import { catalogues } from '../../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../../schemas/kit/entity';
import type { EntityPageContext } from '../../../../src/components/schema/pageContract';
import { sheetButtons } from '../../../../src/components/sheet';
import type { ResourceItem } from '../../../../src/services/passport';
import { buildNavigation } from '../../../../src/session/navigation';
import { navigationStore, resetNavigation } from '../../../../src/session/navigationStore';

// react-intl's class component types predate React 18's children rules.
const IntlProvider = UntypedIntlProvider as unknown as ComponentType<{
  locale: string;
  messages: Record<string, string>;
  children: ReactNode;
}>;

const action = (code: string): ResourceItem => ({
  id: 1,
  name: code,
  kind: 'Action',
  code,
  path: null,
  url: null,
  icon: null,
  sort: 0,
  parentId: null,
  hidden: false,
  affix: false,
  noCache: false,
  activeMenu: null,
  children: [],
});

function grant(...codes: string[]) {
  const tree: ResourceItem[] = [{ ...action('fleet'), kind: 'Menu', path: '/fleet', children: codes.map(action) }];
  act(() => navigationStore.set({ status: 'ready', tree, nav: buildNavigation(tree) }));
}

const ctxOf = (schema: EntitySchema): EntityPageContext => ({
  schema,
  criteria: () => ({}),
  order: () => undefined,
  rows: () => [],
  reload: () => undefined,
  create: () => undefined,
  edit: () => undefined,
});

function toolbar(schema: EntitySchema) {
  return render(
    <IntlProvider locale="zh-CN" messages={catalogues['zh-CN']}>
      <div>{sheetButtons(ctxOf(schema))}</div>
    </IntlProvider>,
  );
}

const shown = () => ['sheet-import', 'sheet-renew', 'sheet-export'].filter((id) => screen.queryByTestId(id));

afterEach(() => act(() => resetNavigation()));

describe('sheetButtons', () => {
  it('shows each button only to members holding its code; an export open to everyone needs none', () => {
    toolbar(entities.terminal);
    grant();
    expect(shown()).toEqual(['sheet-export']); // terminal export defaults to read = NONE
    grant('terminal-import');
    expect(shown()).toEqual(['sheet-import', 'sheet-export']);
    grant('terminal-import', 'terminal-renew');
    expect(shown()).toEqual(['sheet-import', 'sheet-renew', 'sheet-export']);
    expect(screen.getByTestId('sheet-renew').textContent).toContain('批量续期');
  });

  it('guards the vehicle export by its own code and offers no renewal where the schema has none', () => {
    toolbar(entities.vehicle);
    grant('vehicle-import');
    expect(shown()).toEqual(['sheet-import']);
    grant('vehicle-import', 'vehicle-export', 'terminal-renew');
    expect(shown()).toEqual(['sheet-import', 'sheet-export']);
  });

  it('renders nothing for a schema without spreadsheet routes', () => {
    const bare: EntitySchema = {
      ...entities.vehicleBrand,
      'x-entity': { ...entities.vehicleBrand['x-entity'], routes: { query: ['POST /vehicle/vehicleBrand/query'] } },
    };
    expect(sheetButtons(ctxOf(bare))).toEqual([]);
  });
});
