import { Input, Popover } from 'antd';
import type { ChangeEvent } from 'react';
import { useT } from '../../session/useT';
import PasswordRules from './PasswordRules';

/**
 * A new password's input with the password rules beside it while it has the focus, each marked kept
 * or broken as the person types: the same popover as the change-password dialog. (Form.Item injects
 * value and onChange.)
 */
export default function PasswordInput({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (e: ChangeEvent<HTMLInputElement>) => void;
  id?: string;
}) {
  const t = useT();
  return (
    <Popover placement="right" trigger="focus" title={t('console.password.rules')} content={<PasswordRules password={value ?? ''} />}>
      <Input.Password id={id} value={value} onChange={onChange} autoComplete="new-password" data-testid="password-with-rules" />
    </Popover>
  );
}
