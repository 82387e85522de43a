import { loadConfig } from '../../../server/config';

describe('SMTP_* settings', () => {
  it('are off without SMTP_HOST, and read with their defaults', () => {
    expect(loadConfig({}).smtp).toBeNull();
    expect(loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'alarms@fleet.example' }).smtp).toEqual({
      host: 'mail.local',
      port: 25,
      secure: false,
      user: undefined,
      password: undefined,
      from: 'alarms@fleet.example',
    });
    expect(
      loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'a@b.cn', SMTP_SECURE: 'true', SMTP_USER: 'u', SMTP_PASSWORD: 'p' }).smtp,
    ).toMatchObject({ port: 465, secure: true, user: 'u', password: 'p' });
  });

  it('refuse a missing sender, a bad port or TLS flag, and a password without a user, naming the setting', () => {
    expect(() => loadConfig({ SMTP_HOST: 'mail.local' })).toThrow(
      'SMTP_FROM must be the sender\'s e-mail address when SMTP_HOST is set, got ""',
    );
    expect(() => loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'alarms' })).toThrow('SMTP_FROM must be');
    expect(() => loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'a@b.cn', SMTP_PORT: '70000' })).toThrow(
      'SMTP_PORT must be a port number, got "70000"',
    );
    expect(() => loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'a@b.cn', SMTP_SECURE: 'yes' })).toThrow(
      'SMTP_SECURE must be "true" or "false", got "yes"',
    );
    expect(() => loadConfig({ SMTP_HOST: 'mail.local', SMTP_FROM: 'a@b.cn', SMTP_PASSWORD: 'p' })).toThrow(
      'SMTP_PASSWORD is set without SMTP_USER',
    );
  });
});

describe('OBD_ALARM_TYPES', () => {
  it('maps decimal and hex item ids to alarm types', () => {
    expect(loadConfig({}).obdAlarmTypes.size).toBe(0);
    expect([...loadConfig({ OBD_ALARM_TYPES: '0x11=PullOut, 18=Insert,0x05 = Crash' }).obdAlarmTypes]).toEqual([
      [0x11, 'PullOut'],
      [18, 'Insert'],
      [5, 'Crash'],
    ]);
  });

  it.each(['PullOut', '0x11', '0x11=', 'x=Crash', '70000=Crash'])('refuses "%s" as a pair', (bad) => {
    expect(() => loadConfig({ OBD_ALARM_TYPES: bad })).toThrow(
      `OBD_ALARM_TYPES must list id=Type pairs (e.g. "0x11=PullOut,0x12=Insert"), got "${bad}"`,
    );
  });

  it('refuses a type that does not exist, listing those that do', () => {
    expect(() => loadConfig({ OBD_ALARM_TYPES: '0x11=Unplugged' })).toThrow(
      'OBD_ALARM_TYPES: "Unplugged" is not an alarm type (FireOn, Low,',
    );
  });
});
