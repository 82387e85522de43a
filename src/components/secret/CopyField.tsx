import { App, Button, Input, Space } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useT } from '../../session/useT';
import { copyText } from '../../utils/copyText';

/**
 * A value to hand on (a password, a link, a key): read-only, selected on focus, with a copy button
 * that says whether the copy worked (where the clipboard refuses, the value is there to select).
 */
export default function CopyField(props: {
  value: string;
  /** More buttons after "copy" (revoke, done). */
  extra?: ReactNode;
  style?: CSSProperties;
  monospace?: boolean;
  testId?: string;
  copyTestId?: string;
}) {
  const t = useT();
  const { message } = App.useApp();
  const { value } = props;
  return (
    <Space.Compact style={{ width: '100%', ...props.style }}>
      <Input
        readOnly
        value={value}
        onFocus={(e) => e.target.select()}
        style={props.monospace ? { fontFamily: 'monospace' } : undefined}
        data-testid={props.testId}
      />
      <Button
        onClick={async () => {
          if (await copyText(value)) void message.success(t('common.copied'));
          else void message.warning(t('common.copyFailed'));
        }}
        data-testid={props.copyTestId}
      >
        {t('common.copy')}
      </Button>
      {props.extra}
    </Space.Compact>
  );
}
