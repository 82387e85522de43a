import { history, useParams } from '@umijs/max';
import { useLayoutEffect } from 'react';
import { handOver } from '../../session/pendingLogin';

/**
 * /login/{userName}/{password}: the credentials move to memory and the URL is replaced by /login at
 * once, so the password stays in neither the address bar, the history nor storage.
 */
export default function LoginWithCredentials() {
  const { userName = '', password = '' } = useParams<{ userName: string; password: string }>();
  useLayoutEffect(() => {
    handOver({ loginName: userName, password });
    history.replace('/login');
  }, [userName, password]);
  return null;
}
