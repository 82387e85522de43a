/**
 * A small SMTP client (RFC 5321) for alarm and report e-mail: EHLO, optional AUTH PLAIN, MAIL FROM,
 * RCPT TO, DATA, QUIT over one TCP (or implicit-TLS) connection. The message is UTF-8 plain text,
 * with attached files as a multipart/mixed message (RFC 2046), every part base64-encoded and the
 * subject and file names RFC 2047-encoded, so no content can break the SMTP framing or add headers. STARTTLS is not spoken: use implicit TLS (port 465) or a relay on a trusted network.
 */

import net from 'node:net';
import tls from 'node:tls';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (SMTPS, usually port 465). */
  secure: boolean;
  user?: string;
  password?: string;
  /** The envelope and header sender. */
  from: string;
  timeoutMs?: number;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  attachments?: readonly MailAttachment[];
}

export class SmtpError extends Error {
  constructor(
    message: string,
    /** The server's reply code, when it answered. */
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** A mailbox we accept: one address, no spaces, brackets or line breaks. */
export const isMailbox = (s: string): boolean => /^[^\s<>@,;"]+@[^\s<>@,;"]+\.[^\s<>@,;"]+$/.test(s);

const encodeWord = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`);

const base64Lines = (b: Buffer) => b.toString('base64').replace(/.{1,76}/g, '$&\r\n');

/** A quoted header parameter: RFC 2047-encoded unless plain ASCII without quotes or backslashes. */
const paramValue = (s: string) => `"${/^[\x20-\x7e]*$/.test(s) && !/["\\]/.test(s) ? s : encodeWord(s)}"`;

/** The message as sent after DATA (headers, blank line, base64 body or parts), CRLF line ends. */
export function formatMessage(from: string, msg: MailMessage, now = new Date()): string {
  const head = [
    `From: ${from}`,
    `To: ${msg.to.join(', ')}`,
    `Subject: ${encodeWord(msg.subject)}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${randomUUID()}@${from.split('@')[1]}>`,
    'MIME-Version: 1.0',
  ];
  const text = [
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(Buffer.from(msg.text, 'utf8')),
  ];
  if (!msg.attachments?.length) return [...head, ...text].join('\r\n');
  // Base64 never contains '=_', so the boundary cannot occur in a part.
  const boundary = `=_${randomUUID()}`;
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...text,
    ...msg.attachments.flatMap((a) => [
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name=${paramValue(a.filename)}`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename=${paramValue(a.filename)}`,
      '',
      base64Lines(a.content),
    ]),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** Reads SMTP replies (multi-line ones joined) off a socket, one at a time. */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiting: ((err: Error | null) => void) | null = null;
  private failure: Error | null = null;

  constructor(socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, i).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.wake(null);
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      this.wake(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new SmtpError('the SMTP server closed the connection', null)));
  }

  private wake(err: Error | null): void {
    const w = this.waiting;
    this.waiting = null;
    w?.(err);
  }

  async reply(): Promise<{ code: number; text: string }> {
    const collected: string[] = [];
    for (;;) {
      const line = this.lines.shift();
      if (line === undefined) {
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve, reject) => (this.waiting = (err) => (err ? reject(err) : resolve())));
        continue;
      }
      collected.push(line.slice(4));
      if (!/^\d{3}[ -]/.test(line) && !/^\d{3}$/.test(line)) throw new SmtpError(`unexpected SMTP reply: ${line.slice(0, 200)}`, null);
      if (line[3] !== '-') return { code: Number(line.slice(0, 3)), text: collected.join(' ') };
    }
  }
}

/** Sends one message; rejects with an SmtpError naming the step and the server's answer. */
export async function sendMail(cfg: SmtpConfig, msg: MailMessage): Promise<void> {
  const bad = [cfg.from, ...msg.to].find((a) => !isMailbox(a));
  if (bad !== undefined) throw new SmtpError(`not an e-mail address: ${JSON.stringify(bad)}`, null);
  if (!msg.to.length) throw new SmtpError('no recipients', null);
  const socket: net.Socket = cfg.secure
    ? tls.connect({ host: cfg.host, port: cfg.port, servername: cfg.host })
    : net.connect({ host: cfg.host, port: cfg.port });
  const timeoutMs = cfg.timeoutMs ?? 10_000;
  socket.setTimeout(timeoutMs, () => socket.destroy(new SmtpError(`no answer from the SMTP server within ${timeoutMs} ms`, null)));
  const reader = new ReplyReader(socket);
  const expect = async (step: string, ok: number[]) => {
    const r = await reader.reply();
    if (!ok.includes(r.code)) throw new SmtpError(`${step}: ${r.code} ${r.text}`.slice(0, 300), r.code);
  };
  const command = async (line: string, step: string, ok: number[]) => {
    socket.write(`${line}\r\n`);
    await expect(step, ok);
  };
  try {
    await expect('greeting', [220]);
    await command(`EHLO ${hostname().replace(/[^A-Za-z0-9.-]/g, '') || 'localhost'}`, 'EHLO', [250]);
    if (cfg.user)
      await command(`AUTH PLAIN ${Buffer.from(`\0${cfg.user}\0${cfg.password ?? ''}`, 'utf8').toString('base64')}`, 'AUTH', [235]);
    await command(`MAIL FROM:<${cfg.from}>`, 'MAIL FROM', [250]);
    for (const to of msg.to) await command(`RCPT TO:<${to}>`, `RCPT TO ${to}`, [250, 251]);
    await command('DATA', 'DATA', [354]);
    // Base64 lines never begin with a dot, so no dot-stuffing is needed.
    socket.write(formatMessage(cfg.from, msg));
    await command('.', 'message', [250]);
    await command('QUIT', 'QUIT', [221]).catch(() => undefined);
  } finally {
    socket.destroy();
  }
}
