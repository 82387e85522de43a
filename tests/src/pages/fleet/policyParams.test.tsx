import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { policyParamsErrors } from '../../../../server/alarmCentre/policyParamsCheck';
import PolicyParamsInput, { paramsError, type PolicyParams } from '../../../../src/pages/fleet/strategy/PolicyParamsInput';
import { translator } from '../../../../schemas/kit/catalogue';
import { renderFieldError } from '../../../../schemas/kit/errors';
import { polyfillMatchMedia, renderConsole, settle } from '../../components/consoleHarness';

const t = translator('zh-CN');

/** The control as the dialog holds it: its value in state, reported back. */
function Holder({ alarmType, seen }: { alarmType: string; seen: PolicyParams[] }) {
  const [value, setValue] = useState<PolicyParams>(null);
  return (
    <PolicyParamsInput
      alarmType={alarmType}
      t={t}
      value={value}
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
    />
  );
}

const inputs = () => [...document.querySelectorAll<HTMLInputElement>('[data-testid="policy-params"] input')].map((i) => i.id);

beforeAll(polyfillMatchMedia);

describe('policy parameters form', () => {
  it('shows the fields of each alarm type, labelled from the catalogue, and none for a type without parameters', async () => {
    const view = renderConsole(<Holder alarmType="OverSpeed" seen={[]} />);
    await settle();
    expect(inputs()).toEqual(['policy-params_durationSeconds']);
    expect(screen.getByTestId('policy-params').textContent).toContain(t('alarm.params.durationSeconds'));
    view.rerender(<Holder alarmType="RepeatArrival" seen={[]} />);
    await settle();
    expect(inputs()).toEqual(['policy-params_radiusM', 'policy-params_count', 'policy-params_windowHours']);
    view.rerender(<Holder alarmType="Fatigue" seen={[]} />);
    await settle();
    expect(inputs()).toEqual(['policy-params_hours', 'policy-params_restMinutes']);
    view.rerender(<Holder alarmType="FireOn" seen={[]} />);
    await settle();
    expect(screen.queryByTestId('policy-params')).toBeNull();
  });

  it('refuses a value that is not a whole number in the server’s words, and accepts a good one (the number box itself keeps values in range)', async () => {
    const seen: PolicyParams[] = [];
    renderConsole(<Holder alarmType="RepeatArrival" seen={seen} />);
    await settle();
    fireEvent.change(document.getElementById('policy-params_count')!, { target: { value: '2.5' } });
    await settle();
    const server = policyParamsErrors({ alarmType: 'RepeatArrival', params: { count: 2.5 } });
    expect(server).toHaveLength(1);
    const words = renderFieldError(server[0], t);
    expect(screen.getByTestId('policy-params').textContent).toContain(words);
    expect(paramsError('RepeatArrival', seen[seen.length - 1], t)).toBe(words);
    fireEvent.change(document.getElementById('policy-params_count')!, { target: { value: '5' } });
    await settle();
    expect(seen[seen.length - 1]).toMatchObject({ count: 5 });
    expect(paramsError('RepeatArrival', seen[seen.length - 1], t)).toBeNull();
    expect(screen.getByTestId('policy-params').textContent).not.toContain(words);
  });
});
