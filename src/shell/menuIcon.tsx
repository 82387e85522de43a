import { AppstoreOutlined } from '@ant-design/icons';
import { lazy, Suspense, type ComponentType } from 'react';
import * as BUNDLED_ICONS from './bundledIcons';

/**
 * Menu icons by antd icon name. Those of the seeded menus (server/seed/menu.ts) are bundled with the shell; any other name loads
 * the full icon set (a separate chunk served by us, never a CDN) the first time it is needed.
 */
const BUNDLED: Readonly<Record<string, ComponentType>> = BUNDLED_ICONS;

/** Names of the icons that ship with the shell (a test holds every seeded menu icon to it). */
export const bundledIcons = (): string[] => Object.keys(BUNDLED);

const loaded = new Map<string, ComponentType>();

function lazyIcon(name: string): ComponentType {
  let C = loaded.get(name);
  if (!C) {
    C = lazy(async () => {
      const all = (await import('@ant-design/icons')) as unknown as Record<string, ComponentType | undefined>;
      return { default: /^[A-Z]\w+(Outlined|Filled|TwoTone)$/.test(name) && all[name] ? all[name]! : AppstoreOutlined };
    });
    loaded.set(name, C);
  }
  return C;
}

export default function MenuIcon({ name }: { name: string | null }) {
  if (!name) return null;
  const Bundled = BUNDLED[name];
  if (Bundled) return <Bundled />;
  const Lazy = lazyIcon(name);
  return (
    <Suspense fallback={<AppstoreOutlined />}>
      <Lazy />
    </Suspense>
  );
}
