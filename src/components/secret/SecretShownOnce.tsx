import { Alert, App, Button, Input, Space } from 'antd';
import { copyText } from '../../utils/copyText';

/** What the notice says, in the caller's words (its own locale keys). */
export interface SecretLabels {
  shownOnce: string;
  copy: string;
  copied: string;
  done: string;
}

/**
 * A secret the server shows only once (an API key, a subscription's signing secret): read-only,
 * selected on focus, with copy and "I have saved it", which hides it for good.
 */
export default function SecretShownOnce(props: {
  secret: string;
  labels: SecretLabels;
  testId: string;
  secretTestId: string;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const { secret, labels } = props;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid={props.testId}
      message={labels.shownOnce}
      description={
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={secret} onFocus={(e) => e.target.select()} data-testid={props.secretTestId} />
          <Button
            onClick={async () => {
              if (await copyText(secret)) void message.success(labels.copied);
            }}
          >
            {labels.copy}
          </Button>
          <Button type="primary" onClick={props.onDone}>
            {labels.done}
          </Button>
        </Space.Compact>
      }
    />
  );
}
