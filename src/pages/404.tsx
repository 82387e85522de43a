import { Link, useIntl } from '@umijs/max';
import { Result } from 'antd';

export default function NotFound() {
  const intl = useIntl();
  return <Result status="404" title="404" subTitle={intl.formatMessage({ id: 'console.notFound' })} extra={<Link to="/">{intl.formatMessage({ id: 'app.title' })}</Link>} />;
}
