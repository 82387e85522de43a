import { apiBase, isDevelopmentHost } from '../../../../src/services/http/baseUrl';

describe('API base address (SPEC.md §7)', () => {
  it('uses the development address on localhost and 192.168.x.x', () => {
    expect(apiBase({ hostname: 'localhost', origin: 'http://localhost:8000' }, 'http://dev:9000/api')).toBe('http://dev:9000/api');
    expect(apiBase({ hostname: '192.168.1.20', origin: 'http://192.168.1.20' }, '/api')).toBe('/api');
  });

  it('uses the page origin plus /api elsewhere', () => {
    expect(apiBase({ hostname: 'fleet.example.com', origin: 'https://fleet.example.com' }, 'http://dev:9000/api')).toBe(
      'https://fleet.example.com/api',
    );
    expect(apiBase({ hostname: '10.0.0.5', origin: 'http://10.0.0.5:8000' }, '/dev')).toBe('http://10.0.0.5:8000/api');
  });

  it('does not take look-alike hosts for development ones', () => {
    expect(isDevelopmentHost('192.168.1.1.evil.com')).toBe(false);
    expect(isDevelopmentHost('localhost.example.com')).toBe(false);
    expect(isDevelopmentHost('192.169.0.1')).toBe(false);
  });
});
