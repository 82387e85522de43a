import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { logFormatFor, type LogFormat } from '../../../../server/platform/http/logging';

const ROOT = path.resolve(__dirname, '../../../..');
// The line the server logs, through the options it gives Fastify (which hands them to pino).

/** Logs one line through the server's logger options in a child process and returns its stdout. */
function logLine(format: LogFormat): string {
  const script = `
    const pino = require('pino');
    const { loggerOptions } = require('./server/platform/http/logging');
    const log = pino(loggerOptions('info', ${JSON.stringify(format)}));
    log.info({ body: { password: 'S3cret!' } }, 'hello from the log');
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  return r.stdout;
}

describe('log format', () => {
  it('is readable lines on a terminal and JSON lines on anything else', () => {
    expect(logFormatFor({ isTTY: true })).toBe('pretty');
    expect(logFormatFor({ isTTY: false })).toBe('json');
    // A pipe or a file: Node leaves isTTY unset.
    expect(logFormatFor({})).toBe('json');
  });

  it('writes one JSON object a line in the json format, the password masked', () => {
    const out = logLine('json').trim();
    const line = JSON.parse(out) as { msg: string; level: number; body: { password: string } };
    expect(line).toMatchObject({ msg: 'hello from the log', level: 30, body: { password: '***' } });
  });

  it('writes a readable line through pino-pretty in the pretty format, still masked', () => {
    const out = logLine('pretty');
    expect(out).toContain('INFO');
    expect(out).toContain('hello from the log');
    expect(out).not.toContain('S3cret!');
    expect(out).toContain('***');
    expect(() => JSON.parse(out.split('\n')[0])).toThrow();
  });
});
