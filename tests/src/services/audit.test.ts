import { auditEvent } from '../../../src/services/audit';
import { successText } from '../../../src/services/http/failure';

// What auditEvent hands the request layer (jest hoists this factory: it names no imported type).
const mockCalls: Array<{ url: string; opts: { method: string; quiet?: boolean } }> = [];
jest.mock('../../../src/services/http/call', () => ({
  call: (url: string, opts: { method: string; quiet?: boolean }) => {
    mockCalls.push({ url, opts });
    return Promise.resolve(undefined);
  },
}));

const t = (key: string) => key;

describe('the console recording its own audit events', () => {
  it('gets no "added" toast when the server answers 201: the user added nothing', () => {
    auditEvent('messagesOpened', 'vehicle:1');
    expect(mockCalls).toHaveLength(1);
    expect(mockCalls[0]).toMatchObject({ url: '/vehicle/audit/audit/obd-web', opts: { method: 'POST' } });
    // The request layer's own rule (config.ts's response interceptor) on that call's options.
    expect(successText(201, t, mockCalls[0].opts.quiet)).toBeUndefined();
  });

  it('leaves a user create answered 201 its toast', () => {
    expect(successText(201, t)).toBe('http.created');
    expect(successText(204, t, false)).toBe('http.deleted');
  });
});
