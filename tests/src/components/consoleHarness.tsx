import { IntlProvider as UntypedIntlProvider } from '@umijs/max';
import { act, render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import type { ComponentType, ReactElement, ReactNode } from 'react';
import { catalogues } from '../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../schemas/kit/entity';
import type { Language } from '../../../schemas/kit/i18n';
import type { EntityPageContext } from '../../../src/components/schema/pageContract';
import { buildNavigation } from '../../../src/session/navigation';
import { navigationStore } from '../../../src/session/navigationStore';
import type { ResourceItem } from '../../../src/services/passport';

/**
 * Rendering console components under jsdom as the shell would (messages, antd App, granted codes).
 * Kept apart from the test files: a test file that calls jest.mock is compiled by babel without
 * TypeScript types, so the typed helpers live here.
 */
const IntlProvider = UntypedIntlProvider as unknown as ComponentType<{
  locale: string;
  messages: Record<string, string>;
  children: ReactNode;
}>;

// antd's responsive helpers ask for matchMedia, which jsdom lacks.
export function polyfillMatchMedia(): void {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

export function renderConsole(ui: ReactElement, lang: Language = 'zh-CN') {
  return render(
    <IntlProvider locale={lang} messages={catalogues[lang]}>
      {/* No animations: jsdom has no layout, and waiting for them only slows the tests. */}
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>{ui}</App>
      </ConfigProvider>
    </IntlProvider>,
  );
}

/**
 * A resource of the menu tree as the passport answers it: named by its code, a Menu's path '/' + code,
 * unless given. `children` are items made here too (typed loosely: test files that call jest.mock
 * cannot name an imported type).
 */
export function resourceItem({
  children = [],
  ...r
}: Pick<ResourceItem, 'id' | 'kind' | 'code'> & Partial<Omit<ResourceItem, 'children'>> & { children?: object[] }): ResourceItem {
  return {
    name: r.code,
    path: r.kind === 'Menu' ? '/' + r.code : null,
    url: null,
    icon: null,
    sort: 0,
    parentId: null,
    hidden: false,
    affix: false,
    noCache: false,
    activeMenu: null,
    ...r,
    children: children as ResourceItem[],
  };
}

/** The signed-in member holds exactly these action codes. */
export function grant(...codes: string[]): void {
  const tree = [
    resourceItem({
      id: 1,
      kind: 'Menu',
      code: 'fleet',
      children: codes.map((code, i) => resourceItem({ id: i + 2, kind: 'Action', code })),
    }),
  ];
  act(() => navigationStore.set({ status: 'ready', tree, nav: buildNavigation(tree) }));
}

export const settle = (ms = 20) =>
  act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });

/** A schema page's context for row actions, with a reload that records its calls. */
export function pageContext(rows: Array<Record<string, unknown> & { id: number }>): EntityPageContext & { reload: jest.Mock } {
  return {
    schema: { type: 'object', properties: {}, 'x-entity': { name: 'test', table: 'test' } } as unknown as EntitySchema,
    criteria: () => ({}),
    order: () => undefined,
    rows: () => rows,
    reload: jest.fn(),
    create: jest.fn(),
    edit: jest.fn(),
  };
}

/** A jest.fn() put in place by jest.mock, typed as such. */
export const mocked = (fn: unknown): jest.Mock => fn as jest.Mock;
