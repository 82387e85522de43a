/** Stream tickets: one opening each, only while they last, only as signed, only by this server's secret. */

import { signStreamTicket, TicketBook, TICKET_TTL_MS } from '../../../../server/telematics/video/streamTicket';

const CLAIMS = {
  kind: 'live' as const,
  memberId: 7,
  memberName: 'dispatcher',
  orgId: 3,
  vehicleId: 11,
  licence: '沪A12345',
  terminalId: 5,
  channel: 1,
};

describe('stream tickets', () => {
  it('open one stream while they last', () => {
    const now = 1_800_000_000_000;
    const book = new TicketBook('secret');
    const { ticket, exp } = signStreamTicket(CLAIMS, 'secret', now);
    expect(exp).toBe(now + TICKET_TTL_MS);
    expect(book.check(ticket, now + 1000)).toEqual({ ok: true, claims: expect.objectContaining(CLAIMS) });
    expect(book.check(ticket, now + 2000)).toEqual({ ok: false, reason: 'used' });
    // Once expired, a used ticket is refused as expired (the book forgets it, the expiry does not).
    expect(book.check(ticket, exp)).toEqual({ ok: false, reason: 'expired' });
    const late = signStreamTicket(CLAIMS, 'secret', now);
    expect(new TicketBook('secret').check(late.ticket, late.exp + 1)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse what this server did not sign as it stands', () => {
    const now = Date.now();
    const { ticket } = signStreamTicket(CLAIMS, 'secret', now);
    const book = new TicketBook('secret');
    expect(new TicketBook('other secret').check(ticket, now)).toEqual({ ok: false, reason: 'invalid' });
    const [payload, sig] = ticket.split('.');
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), vehicleId: 12 })).toString(
      'base64url',
    );
    expect(book.check(`${widened}.${sig}`, now)).toEqual({ ok: false, reason: 'invalid' });
    for (const bad of ['', '.', 'abc', `${payload}.`, `.${sig}`, 'x'.repeat(3000)])
      expect(book.check(bad, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(book.check(ticket, now).ok).toBe(true);
  });
});
