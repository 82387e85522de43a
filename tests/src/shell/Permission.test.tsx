import { act, render, screen } from '@testing-library/react';
import Permission from '../../../src/shell/Permission';
import { buildNavigation } from '../../../src/shell/navigation';
import { navigationStore, resetNavigation } from '../../../src/shell/navigationStore';
import type { ResourceItem } from '../../../src/services/passport';

const item = (kind: 'Menu' | 'Action', code: string, children: ResourceItem[] = []): ResourceItem => ({
  id: 1,
  name: code,
  kind,
  code,
  path: kind === 'Menu' ? '/' + code : null,
  url: null,
  icon: null,
  sort: 0,
  parentId: null,
  hidden: false,
  affix: false,
  noCache: false,
  activeMenu: null,
  children,
});

function grant(...codes: string[]) {
  const tree = [item('Menu', 'system', codes.map((c) => item('Action', c)))];
  act(() => navigationStore.set({ status: 'ready', tree, nav: buildNavigation(tree) }));
}

function ui() {
  return render(
    <>
      <Permission code="role-add">
        <button>add</button>
      </Permission>
      <Permission code="role-add,role-remove">
        <button>add and remove</button>
      </Permission>
      <Permission code={['role-remove', 'role-edit']}>
        <button>remove or edit</button>
      </Permission>
    </>,
  );
}

afterEach(() => act(() => resetNavigation()));

describe('<Permission>', () => {
  it('shows nothing before the menus are loaded', () => {
    ui();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('shows what the Action codes grant, and follows a change of member', () => {
    ui();
    grant('role-add', 'role-edit');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['add', 'remove or edit']);
    grant('role-add', 'role-remove');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['add', 'add and remove', 'remove or edit']);
    act(() => resetNavigation());
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
