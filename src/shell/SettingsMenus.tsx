import { FontSizeOutlined, FullscreenExitOutlined, FullscreenOutlined, TranslationOutlined } from '@ant-design/icons';
import { setLocale } from '@umijs/max';
import { Button, Dropdown, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { LANGUAGES, type Language } from '../../schemas/kit/i18n';
import { applyDayjsLocale } from './dayjsLocale';
import { currentLanguage } from './language';
import { UI_SIZES, updateSettings, useSettings } from './settings';
import { useT } from './useT';

/** Language switch: every string, antd's own included, without a reload. */
export function LanguageMenu() {
  const t = useT();
  const lang = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((l) => ({ key: l, label: t(`console.languages.${l}`) })),
        onClick: ({ key }) => {
          applyDayjsLocale(key as Language);
          setLocale(key, false);
        },
      }}
    >
      <Tooltip title={t('console.navbar.language')} placement="left">
        <Button type="text" icon={<TranslationOutlined />} aria-label={t('console.navbar.language')} data-testid="language-menu" />
      </Tooltip>
    </Dropdown>
  );
}

export function SizeMenu() {
  const t = useT();
  const { size } = useSettings();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: UI_SIZES.map((s) => ({ key: s, label: t(`console.size.${s}`) })),
        onClick: ({ key }) => updateSettings({ size: key as (typeof UI_SIZES)[number] }),
      }}
    >
      <Tooltip title={t('console.navbar.size')} placement="left">
        <Button type="text" icon={<FontSizeOutlined />} aria-label={t('console.navbar.size')} />
      </Tooltip>
    </Dropdown>
  );
}

export function FullscreenToggle() {
  const t = useT();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const label = t(full ? 'console.navbar.exitFullscreen' : 'console.navbar.fullscreen');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={() => void (full ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined)}
      />
    </Tooltip>
  );
}
