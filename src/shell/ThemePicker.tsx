import { ColorPicker, Tooltip } from 'antd';
import { PICKER_DEFAULT_COLOR, updateSettings, useSettings } from './settings';
import { useT } from '../session/useT';

/** The primary colour, applied through antd theme tokens and remembered. */
export default function ThemePicker() {
  const t = useT();
  const { themeColor } = useSettings();
  return (
    <Tooltip title={t('console.navbar.theme')}>
      <span>
        <ColorPicker
          size="small"
          disabledAlpha
          value={themeColor ?? PICKER_DEFAULT_COLOR}
          presets={[
            {
              label: t('console.navbar.theme'),
              colors: [PICKER_DEFAULT_COLOR, '#0c3467', '#1890ff', '#13c2c2', '#52c41a', '#fa541c', '#eb2f96', '#722ed1'],
            },
          ]}
          onChangeComplete={(c) => updateSettings({ themeColor: c.toHexString() })}
          data-testid="theme-picker"
        />
      </span>
    </Tooltip>
  );
}
