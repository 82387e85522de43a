import { Link } from '@umijs/max';
import { Button, Result } from 'antd';
import { useT } from '../session/useT';

/** Unknown paths and menu entries without a page (SPEC.md §2). */
export default function NotFound() {
  const t = useT();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('console.notFound')}
      extra={
        <Link to="/">
          <Button type="primary">{t('console.backHome')}</Button>
        </Link>
      }
    />
  );
}
