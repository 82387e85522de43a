import { useNavigate } from '@umijs/max';
import { Dropdown, Tabs } from 'antd';
import { useT } from '../session/useT';
import { closeAll, closeOthers, closeView, nextPathAfterClose, refreshView, useViews, viewsStore } from './visitedViews';

export interface TagsViewProps {
  activePath: string | null;
  defaultPath: string;
  /** The routes of the open views (menu pages and details) in the current language: a tab shows its route's title now, not the one it opened with. */
  titleOf: (path: string) => string | undefined;
}

type Command = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

/** Tabs of visited pages with a context menu; affix tabs have no close button and survive every close. */
export default function TagsView({ activePath, defaultPath, titleOf }: TagsViewProps) {
  const t = useT();
  const navigate = useNavigate();
  const { views } = useViews();

  const run = (cmd: Command, path: string) => {
    const before = viewsStore.get();
    if (cmd === 'refresh') {
      viewsStore.set(refreshView(before, path));
      // SPEC.md §2: a tab refreshes through /redirect/{path}.
      navigate('/redirect' + path, { replace: true });
      return;
    }
    const after = cmd === 'close' ? closeView(before, path) : cmd === 'closeOthers' ? closeOthers(before, path) : closeAll(before);
    viewsStore.set(after);
    if (cmd === 'closeOthers') {
      if (activePath !== path) navigate(path);
    } else if (!after.views.some((v) => v.path === activePath)) {
      navigate(nextPathAfterClose(after, defaultPath));
    }
  };

  const menuFor = (path: string, affix: boolean) => ({
    style: { minWidth: 105 },
    items: [
      { key: 'refresh', label: t('console.tabs.refresh') },
      ...(affix ? [] : [{ key: 'close', label: t('console.tabs.close') }]),
      { key: 'closeOthers', label: t('console.tabs.closeOthers') },
      { key: 'closeAll', label: t('console.tabs.closeAll') },
    ],
    onClick: ({ key }: { key: string }) => run(key as Command, path),
  });

  return (
    <Tabs
      className="fs-tags"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activePath ?? undefined}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => action === 'remove' && typeof key === 'string' && run('close', key)}
      items={views.map((v) => ({
        key: v.path,
        closable: !v.affix,
        label: (
          <Dropdown trigger={['contextMenu']} menu={menuFor(v.path, v.affix)}>
            <span data-path={v.path}>{titleOf(v.path) ?? v.title}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
