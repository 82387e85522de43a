import { Alert, Button } from 'antd';
import { useT } from '../../session/useT';
import CopyField from './CopyField';

/**
 * A secret the server shows only once (an API key, a subscription's signing secret): read-only,
 * selected on focus, with copy and "I have saved it", which hides it for good.
 */
export default function SecretShownOnce(props: {
  secret: string;
  /** What the notice says of this secret (the caller's words). */
  notice: string;
  testId: string;
  secretTestId: string;
  onDone: () => void;
}) {
  const t = useT();
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid={props.testId}
      message={props.notice}
      description={
        <CopyField
          value={props.secret}
          testId={props.secretTestId}
          extra={
            <Button type="primary" onClick={props.onDone}>
              {t('common.savedIt')}
            </Button>
          }
        />
      }
    />
  );
}
