/**
 * A small SMTP server on 127.0.0.1 for tests: speaks EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA and
 * QUIT over real TCP and keeps every message it accepted. Recipients in `refuse` get 550.
 */

import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** 'user:password' from AUTH PLAIN, or null without AUTH. */
  auth: string | null;
  /** The message as sent after DATA (dot-stuffing undone), CRLF line ends. */
  data: string;
}

export interface SmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** Every command line received, in order (AUTH's secret included). */
  commands: string[];
  close(): Promise<void>;
}

export async function startSmtpServer(opts: { refuse?: string[]; user?: string; password?: string } = {}): Promise<SmtpServer> {
  const messages: ReceivedMail[] = [];
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let dataLines: string[] = [];
    let mail: ReceivedMail = { from: '', to: [], auth: null, data: '' };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 test.local ESMTP');
    const onLine = (line: string) => {
      if (inData) {
        if (line === '.') {
          inData = false;
          messages.push({ ...mail, data: dataLines.join('\r\n') });
          mail = { from: '', to: [], auth: mail.auth, data: '' };
          return say('250 OK queued');
        }
        dataLines.push(line.startsWith('..') ? line.slice(1) : line);
        return;
      }
      commands.push(line);
      const verb = line.split(' ')[0].toUpperCase();
      if (verb === 'EHLO') return socket.write('250-test.local\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n');
      if (verb === 'AUTH') {
        const [, user, password] = Buffer.from(line.split(' ')[2] ?? '', 'base64')
          .toString('utf8')
          .split('\0');
        if (opts.user !== undefined && (user !== opts.user || password !== opts.password)) return say('535 5.7.8 authentication failed');
        mail.auth = `${user}:${password}`;
        return say('235 2.7.0 authenticated');
      }
      if (opts.user !== undefined && !mail.auth && (verb === 'MAIL' || verb === 'RCPT')) return say('530 5.7.0 authentication required');
      if (verb === 'MAIL') {
        mail.from = /<(.*)>/.exec(line)?.[1] ?? '';
        return say('250 OK');
      }
      if (verb === 'RCPT') {
        const to = /<(.*)>/.exec(line)?.[1] ?? '';
        if (opts.refuse?.includes(to)) return say('550 5.1.1 no such mailbox');
        mail.to.push(to);
        return say('250 OK');
      }
      if (verb === 'DATA') {
        if (!mail.to.length) return say('554 no valid recipients');
        inData = true;
        dataLines = [];
        return say('354 end with <CRLF>.<CRLF>');
      }
      if (verb === 'QUIT') {
        say('221 bye');
        return socket.end();
      }
      return say('502 command not implemented');
    };
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        onLine(line);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    messages,
    commands,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** The decoded subject and body of a received message (as `formatMessage` writes them). */
export function readMail(data: string): { headers: Record<string, string>; subject: string; body: string } {
  const [head, ...rest] = data.split('\r\n\r\n');
  const headers = Object.fromEntries(
    head.split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const word = /^=\?UTF-8\?B\?(.*)\?=$/.exec(headers.subject ?? '');
  return {
    headers,
    subject: word ? Buffer.from(word[1], 'base64').toString('utf8') : (headers.subject ?? ''),
    body: Buffer.from(rest.join('\r\n\r\n').replace(/\r\n/g, ''), 'base64').toString('utf8'),
  };
}

/** The parts of a received multipart message (as `formatMessage` writes one): each part's headers and decoded content. */
export function readParts(data: string): Array<{ headers: Record<string, string>; content: Buffer }> {
  const { headers } = readMail(data);
  const boundary = /boundary="([^"]+)"/.exec(headers['content-type'] ?? '')?.[1];
  if (!boundary) return [];
  return data
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
      return {
        headers: Object.fromEntries(
          head.split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        ),
        content: Buffer.from(rest.join('').replace(/\r\n/g, ''), 'base64'),
      };
    });
}
