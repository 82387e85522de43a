import { callHeaders } from '../../../../src/services/http/headers';

describe('call headers (SPEC.md §7)', () => {
  it('sends the session token, NONE and obd-web by default, and the language', () => {
    expect(callHeaders({}, 'tok', 'en-US')).toEqual({
      Authorization: 'Bearer tok',
      'X-Authority': 'NONE',
      'x-application-code': 'obd-web',
      'Accept-Language': 'en-US',
      'X-Time-Zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('sends no Authorization without a token', () => {
    expect(callHeaders({}, null, 'zh-CN')).not.toHaveProperty('Authorization');
  });

  it('lets a call name its permission code, application, AppCode and an explicit token', () => {
    expect(callHeaders({ authority: 'role-add', application: 'vehicle-app', appCode: 'B01', token: 'weak' }, 'tok', 'zh-CN')).toEqual({
      Authorization: 'Bearer weak',
      'X-Authority': 'role-add',
      'x-application-code': 'vehicle-app',
      AppCode: 'B01',
      'Accept-Language': 'zh-CN',
      // Spreadsheets show and read times in the browser's zone.
      'X-Time-Zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });
});
