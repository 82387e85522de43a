import { IntlProvider as UntypedIntlProvider } from '@umijs/max';
import type { ComponentType, ReactNode } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { catalogues } from '../../../../schemas/kit/catalogue';
import ChangePasswordForm from '../../../../src/components/password/ChangePasswordForm';

// react-intl's class component types predate React 18's children rules.
const IntlProvider = UntypedIntlProvider as unknown as ComponentType<{
  locale: string;
  messages: Record<string, string>;
  children: ReactNode;
}>;

// antd's responsive helpers ask for matchMedia, which jsdom lacks.
beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

function ui() {
  const onChanged = jest.fn();
  const r = render(
    <IntlProvider locale="zh-CN" messages={catalogues['zh-CN']}>
      <ChangePasswordForm uid="u1" onChanged={onChanged} />
    </IntlProvider>,
  );
  const fields = r.container.querySelectorAll<HTMLInputElement>('input[type=password]');
  return { ...r, onChanged, old: fields[0], next: fields[1], confirm: fields[2] };
}

const type = (el: HTMLInputElement, value: string) => fireEvent.change(el, { target: { value } });

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await new Promise((r) => setTimeout(r, 50));
  });
}

describe('change-password form', () => {
  it('requires all three fields with the SPEC.md texts', async () => {
    const { onChanged } = ui();
    await submit();
    expect(await screen.findByText('旧密码不能为空')).toBeTruthy();
    expect(screen.getByText('新密码不能为空')).toBeTruthy();
    expect(screen.getByText('请再次输入你的登录密码')).toBeTruthy();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('refuses a weak new password and a mismatching confirmation', async () => {
    const { old, next, confirm } = ui();
    type(old, 'oldpass1');
    type(next, 'abc123');
    type(confirm, 'abc124');
    await submit();
    expect(await screen.findByText('密码强度太弱')).toBeTruthy();
    expect(screen.getByText('两次输入的密码不一致，请重新输入')).toBeTruthy();
  });

  it('rates the new password live with the kit', async () => {
    const { next } = ui();
    const level = () => document.querySelector('[data-testid=strength-meter]')?.getAttribute('data-strength');
    expect(level()).toBeUndefined();
    await act(async () => type(next, 'aaa111'));
    expect(level()).toBe('weak');
    await act(async () => type(next, 'Fleet2468'));
    expect(level()).toBe('medium');
    await act(async () => type(next, 'Fleet#2468x'));
    expect(level()).toBe('strong');
    expect(screen.getByText('强')).toBeTruthy();
  });
});
