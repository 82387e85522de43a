import { act, screen } from '@testing-library/react';
import Permission from '../../../src/session/Permission';
import { resetNavigation } from '../../../src/session/navigationStore';
import { grant, renderConsole } from '../components/consoleHarness';

function ui() {
  return renderConsole(
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
