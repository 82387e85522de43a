import { FontSizeOutlined, FullscreenExitOutlined, FullscreenOutlined, TranslationOutlined } from '@ant-design/icons';
import { setLocale } from '@umijs/max';
import { Button, Dropdown, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { LANGUAGES, type Language } from '../../schemas/kit/i18n';
import { ensureCatalogue } from '../session/bundledCatalogue';
import { applyDayjsLocale } from '../session/dayjsLocale';
import { currentLanguage } from '../session/language';
import { UI_SIZES, updateSettings, useSettings } from './settings';
import { useT } from '../session/useT';

/** A navbar button opening a one-choice menu, the current choice selected. */
function ChoiceMenu({
  choices,
  selected,
  labelOf,
  onChoose,
  title,
  icon,
  testId,
}: {
  choices: readonly string[];
  selected: string;
  labelOf: (choice: string) => string;
  onChoose: (choice: string) => void;
  title: string;
  icon: ReactNode;
  testId?: string;
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [selected],
        items: choices.map((c) => ({ key: c, label: labelOf(c) })),
        onClick: ({ key }) => onChoose(key),
      }}
    >
      <Tooltip title={title} placement="left">
        <Button type="text" icon={icon} aria-label={title} data-testid={testId} />
      </Tooltip>
    </Dropdown>
  );
}

/** Language switch: every string, antd's own included, without a reload. */
export function LanguageMenu() {
  const t = useT();
  return (
    <ChoiceMenu
      choices={LANGUAGES}
      selected={currentLanguage()}
      labelOf={(l) => t(`console.languages.${l}`)}
      onChoose={(key) => {
        const lang = key as Language;
        // The language's words first (a chunk of their own), so the switch never shows keys; failing
        // that, Root asks the server for them once the language is set.
        void ensureCatalogue(lang)
          .catch(() => undefined)
          .then(() => {
            applyDayjsLocale(lang);
            setLocale(lang, false);
          });
      }}
      title={t('console.navbar.language')}
      icon={<TranslationOutlined />}
      testId="language-menu"
    />
  );
}

export function SizeMenu() {
  const t = useT();
  const { size } = useSettings();
  return (
    <ChoiceMenu
      choices={UI_SIZES}
      selected={size}
      labelOf={(s) => t(`console.size.${s}`)}
      onChoose={(key) => updateSettings({ size: key as (typeof UI_SIZES)[number] })}
      title={t('console.navbar.size')}
      icon={<FontSizeOutlined />}
    />
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
