import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { translator } from '../../../../schemas/kit/catalogue';
import { ActionLink, AddButton, DeleteLink, ExpandButtons, operationColumn } from '../../../../src/components/system/tableActions';
import { resetNavigation } from '../../../../src/session/navigationStore';
import { grant, polyfillMatchMedia, renderConsole, settle } from '../consoleHarness';

beforeAll(polyfillMatchMedia);
afterEach(() => act(() => resetNavigation()));

/** Clicks the delete link and the Popconfirm's OK. */
async function confirmDelete() {
  fireEvent.click(screen.getByText('删除'));
  expect(await screen.findByText('确定删除“调度员”吗？')).toBeTruthy();
  await act(async () => {
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary')!);
  });
  await settle();
}

describe('row delete link', () => {
  it('asks first, then deletes and tells the table', async () => {
    grant('role-remove');
    const remove = jest.fn(async () => {});
    const onDeleted = jest.fn();
    renderConsole(<DeleteLink code="role-remove" name="调度员" remove={remove} onDeleted={onDeleted} />);
    await confirmDelete();
    expect(remove).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
  });

  it('leaves the table as it was when the server refuses (the request client says why)', async () => {
    grant('role-remove');
    const remove = jest.fn(() => Promise.reject(new Error('406')));
    const onDeleted = jest.fn();
    renderConsole(<DeleteLink code="role-remove" name="调度员" remove={remove} onDeleted={onDeleted} />);
    await confirmDelete();
    expect(remove).toHaveBeenCalledTimes(1);
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('is not there without its code', () => {
    grant('role-edit');
    renderConsole(<DeleteLink code="role-remove" name="调度员" remove={jest.fn()} onDeleted={jest.fn()} />);
    expect(screen.queryByText('删除')).toBeNull();
  });
});

describe('row links and toolbar buttons', () => {
  it('show only with their code and call back when clicked', () => {
    grant('role-edit');
    const edit = jest.fn();
    const add = jest.fn();
    renderConsole(
      <>
        <ActionLink code="role-edit" onClick={edit}>
          编辑
        </ActionLink>
        <ActionLink code="role-authorize" onClick={jest.fn()}>
          授权
        </ActionLink>
        <AddButton code="role-add" onClick={add}>
          新增角色
        </AddButton>
      </>,
    );
    fireEvent.click(screen.getByText('编辑'));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('授权')).toBeNull();
    expect(screen.queryByText('新增角色')).toBeNull();
    grant('role-add');
    fireEvent.click(screen.getByRole('button', { name: /新增角色/ }));
    expect(add).toHaveBeenCalledTimes(1);
  });

  it('expand every parent or none', () => {
    const onExpand = jest.fn();
    renderConsole(<ExpandButtons parents={[1, 4]} onExpand={onExpand} />);
    fireEvent.click(screen.getByRole('button', { name: '展开全部' }));
    fireEvent.click(screen.getByRole('button', { name: '折叠全部' }));
    expect(onExpand.mock.calls).toEqual([[[1, 4]], [[]]]);
  });
});

describe('operation column', () => {
  const t = translator('zh-CN');
  it('is titled, holds the row links and stays on the right unless told not to', () => {
    const col = operationColumn<{ id: number }>(t, 200, (r) => [`link-${r.id}`]);
    expect(col).toMatchObject({ title: '操作', valueType: 'option', fixed: 'right', width: 200 });
    expect(col.render!(null, { id: 3 }, 0, undefined as never, undefined as never)).toEqual(['link-3']);
    expect(operationColumn(t, 180, () => [], { fixed: false })).not.toHaveProperty('fixed');
  });
});
