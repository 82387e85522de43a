/**
 * `npm run simulate -- --terminals N --interval S [--host H] [--port P] [--from K]
 *   [--provision --api URL --user admin --password …] [--local-addresses 127.0.0.2,127.0.0.3] [--duration S]
 *   [--codes FILE]`
 *
 * Opens N real TCP terminals against a JT/T 808 gateway. Terminal numbers are the demo ones
 * (8080xxxxxxxx, from K = 1); with --provision, missing terminal and vehicle rows are created in
 * the demo organisation through the API first (numbers 8090xxxxxxxx then, so demo data stays as is).
 * The platform registers a terminal once: --codes keeps the issued auth codes in a JSON file (as a
 * real terminal keeps its code in flash), so a later run authenticates instead of registering.
 */

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { demoFixtures } from '../seed/fixtures';
import { Fleet, type FleetTerminal } from './fleet';
import { provisionThroughApi } from './provision';

function num(name: string, v: string | undefined, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be between ${min} and ${max}, got "${v}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      terminals: { type: 'string', default: '8' },
      interval: { type: 'string', default: '10' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: process.env.JT808_PORT || '6808' },
      from: { type: 'string', default: '1' },
      duration: { type: 'string' },
      provision: { type: 'boolean', default: false },
      api: { type: 'string', default: `http://127.0.0.1:${process.env.PORT || 8000}` },
      user: { type: 'string', default: 'admin' },
      password: { type: 'string', default: process.env.SIM_PASSWORD || process.env.ADMIN_PASSWORD },
      org: { type: 'string', default: 'HD-SH' },
      'local-addresses': { type: 'string' },
      codes: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'npm run simulate -- --terminals N --interval S [--host H] [--port P] [--from K] [--duration S]\n' +
        '  [--provision --api URL --user admin --password P --org HD-SH] [--local-addresses 127.0.0.2,127.0.0.3] [--codes FILE]\n',
    );
    return;
  }
  const count = num('terminals', values.terminals, 8, 1, 100_000);
  const intervalS = num('interval', values.interval, 10, 0.05, 3600);
  const from = num('from', values.from, 1, 1, 99_999_999);
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

  let terminals: FleetTerminal[];
  if (values.provision) {
    if (!values.password) throw new Error('--provision needs --password (or SIM_PASSWORD / ADMIN_PASSWORD)');
    const numbers = Array.from({ length: count }, (_, i) => `8090${String(from + i).padStart(8, '0')}`);
    const created = await provisionThroughApi({
      api: values.api!,
      user: values.user!,
      password: values.password,
      orgCode: values.org!,
      terminalNumbers: numbers,
    });
    log(`provisioned ${created} new terminal(s) and vehicle(s) in ${values.org}`);
    terminals = numbers.map((phone) => ({ phone }));
  } else {
    const demo = demoFixtures.terminals.slice(from - 1, from - 1 + count);
    if (demo.length < count) throw new Error(`only ${demoFixtures.terminals.length} demo terminals exist: use --provision for more`);
    terminals = demo.map((t) => ({ phone: t.terminalNo, version: t.protocol === '2019' ? 2019 : 2013 }));
  }

  const codesFile = values.codes;
  const codes: Record<string, string> =
    codesFile && fs.existsSync(codesFile) ? (JSON.parse(fs.readFileSync(codesFile, 'utf8')) as Record<string, string>) : {};
  terminals = terminals.map((t) => ({ ...t, authCode: codes[t.phone] }));
  const fleet = new Fleet({
    host: values.host!,
    port: num('port', values.port, 6808, 1, 65535),
    terminals,
    intervalMs: intervalS * 1000,
    localAddresses: values['local-addresses']?.split(',').filter(Boolean),
    log,
  });
  await fleet.start();
  log(`${count} terminal(s) connected to ${values.host}:${values.port}, reporting every ${intervalS} s`);
  const saveCodes = () => {
    if (!codesFile) return;
    for (const t of fleet.terminals) if (t.authCode) codes[t.opts.phone] = t.authCode;
    fs.writeFileSync(codesFile, JSON.stringify(codes, null, 2));
  };
  saveCodes();
  const status = setInterval(() => {
    saveCodes();
    log(JSON.stringify(fleet.stats()));
  }, 10_000);
  const stop = async () => {
    clearInterval(status);
    await fleet.stop();
    saveCodes();
    log(`stopped: ${JSON.stringify(fleet.stats())}`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (values.duration) setTimeout(() => void stop(), num('duration', values.duration, 0, 1, 1e7) * 1000);
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
