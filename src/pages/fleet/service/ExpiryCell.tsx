import { theme, Tooltip } from 'antd';
import { useT } from '../../../session/useT';
import { isExpired, localToday } from './serviceDates';

/**
 * A date that ends something (a service, a driving licence): red, with the reason on hover, once
 * it lies before today — the same rule as the vehicle licence cell.
 */
export default function ExpiryCell({ value, expiredKey }: { value: unknown; expiredKey: string }) {
  const t = useT();
  const { token } = theme.useToken();
  const text = typeof value === 'string' && value ? value.slice(0, 10) : '-';
  if (!isExpired(value, localToday())) return <>{text}</>;
  return (
    <Tooltip title={t(expiredKey)}>
      <span style={{ color: token.colorError }} data-testid="date-expired">
        {text}
      </span>
    </Tooltip>
  );
}
